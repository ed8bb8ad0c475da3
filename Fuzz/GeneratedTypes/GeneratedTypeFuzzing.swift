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
// Each input goes through the SDK's coders (OrderedJSONDecoder and OrderedJSONEncoder, what the
// client uses) and through Foundation's (which an app may use on the generated types).

import Foundation
import OpenAI
import OpenAIRuntime

/// One pair of coders: a lenient and a strict decoder and an encoder.
struct Coders: Sendable {
    var lenient: any DecodesData
    var strict: any DecodesData
    var encode: @Sendable (any Encodable) throws -> Data
}

protocol DecodesData: Sendable {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}
extension JSONDecoder: DecodesData {}
extension OrderedJSONDecoder: DecodesData {}

let sdkCoders: Coders = {
    var strict = OrderedJSONDecoder()
    strict.userInfo[.openAIDecodingMode] = DecodingMode.strict
    let encoder = OrderedJSONEncoder()
    return Coders(lenient: OrderedJSONDecoder(), strict: strict, encode: { try encoder.encode($0) })
}()

let foundationCoders: Coders = {
    let strict = JSONDecoder()
    strict.userInfo[.openAIDecodingMode] = DecodingMode.strict
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Coders(lenient: JSONDecoder(), strict: strict, encode: { try encoder.encode($0) })
}()

/// Decodes `data` as `type`: the value, or `nil` after a `DecodingError` (any other error breaks
/// the invariant).
func decode<T: Decodable>(_ type: T.Type, from data: Data, with decoder: any DecodesData) -> T? {
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

func encode<T: Encodable>(_ value: T, with coders: Coders) -> Data {
    do {
        return try coders.encode(value)
    } catch {
        invariant(false, "a decoded value does not encode: \(error)")
        return Data()
    }
}

/// Checks the invariants above for `data` decoded as `type`, with the SDK's coders and Foundation's.
func fuzzDecoding<T: Codable & Equatable>(_ type: T.Type, _ data: Data) {
    fuzzDecoding(type, data, with: sdkCoders)
    fuzzDecoding(type, data, with: foundationCoders)
}

func fuzzDecoding<T: Codable & Equatable>(_ type: T.Type, _ data: Data, with coders: Coders) {
    let lenient = decode(type, from: data, with: coders.lenient)
    let strict = decode(type, from: data, with: coders.strict)
    if let lenient {
        let report = SpecDeviationReport(lenient)
        invariant(
            (strict != nil) == report.isEmpty,
            strict == nil ? "strict decoding fails with no deviation recorded" : "strict decoding passes: \(report)")
        let encoded = encode(lenient, with: coders)
        guard let again = decode(type, from: encoded, with: coders.lenient) else {
            invariant(false, "the encoded value does not decode: \(String(decoding: encoded, as: UTF8.self))")
            return
        }
        invariant(encode(again, with: coders) == encoded, "a second round trip changes the JSON")
    }
    if let strict {
        invariant(strict == lenient, "strict and lenient decoding give different values")
    }
}
