// Shared by the fuzz targets of generated types (ResponseStreamEvent, Response,
// RealtimeServerEvent, ChatCompletion): decoding a reply's bytes as the SDK does.
//
// Invariants, for any input:
// - decoding never traps and throws nothing but `DecodingError`, in lenient and in strict mode,
//   and `OpenAIError.decoding` describes the error without trapping;
// - strict decoding succeeds exactly when lenient decoding succeeds with no spec deviation
//   (DecodingMode's contract), and then both give the same value;
// - a value that decodes encodes, and its JSON decodes again to a value that encodes to the same
//   JSON (one round trip settles it).

import Foundation
import OpenAI
import OpenAIRuntime

let lenientDecoder = JSONDecoder()
let strictDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.userInfo[.openAIDecodingMode] = DecodingMode.strict
    return decoder
}()
let sortedEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}()

/// Decodes `data` as `type`: the value, or `nil` after a `DecodingError` (any other error breaks
/// the invariant).
func decode<T: Decodable>(_ type: T.Type, from data: Data, with decoder: JSONDecoder) -> T? {
    do {
        return try decoder.decode(type, from: data)
    } catch let error as DecodingError {
        let described = OpenAIError.decoding(error, response: HTTPResponse(statusCode: 200, body: data))
        _ = described.description
        return nil
    } catch {
        invariant(false, "decoding threw \(Swift.type(of: error)), not DecodingError")
        return nil
    }
}

func encode<T: Encodable>(_ value: T) -> Data {
    do {
        return try sortedEncoder.encode(value)
    } catch {
        invariant(false, "a decoded value does not encode: \(error)")
        return Data()
    }
}

/// Checks the invariants above for `data` decoded as `type`.
func fuzzDecoding<T: Codable & Equatable>(_ type: T.Type, _ data: Data) {
    let lenient = decode(type, from: data, with: lenientDecoder)
    let strict = decode(type, from: data, with: strictDecoder)
    if let lenient {
        let report = SpecDeviationReport(lenient)
        invariant(
            (strict != nil) == report.isEmpty,
            strict == nil ? "strict decoding fails with no deviation recorded" : "strict decoding passes: \(report)")
        let encoded = encode(lenient)
        guard let again = decode(type, from: encoded, with: lenientDecoder) else {
            invariant(false, "the encoded value does not decode: \(String(decoding: encoded, as: UTF8.self))")
            return
        }
        invariant(encode(again) == encoded, "a second round trip changes the JSON")
    }
    if let strict {
        invariant(strict == lenient, "strict and lenient decoding give different values")
    }
}
