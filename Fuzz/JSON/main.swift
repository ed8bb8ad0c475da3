// Fuzz target: the SDK's JSON decoder (Sources/OpenAIRuntime/Coding/JSON: JSONDocument, OrderedJSONDecoder)
// and its writer, on bytes as a server sends them. Invariants:
// - it never traps, and throws only `DecodingError.dataCorrupted` whose underlying error is a
//   `JSONSyntaxError` at an offset within the text;
// - text that Foundation's JSONDecoder reads as a JSON value it reads too, as the same value (numbers
//   compared as numbers), unless the text is not UTF-8 (Foundation also reads UTF-16 and UTF-32),
//   holds an invalid escape (Foundation checks the escapes of the strings it reads only: one in the
//   second value of a repeated member passes there), or is refused by Foundation's JSONSerialization
//   (which reads every value: a malformed number in the second value of a repeated member passes
//   JSONDecoder only);
// - a value it reads is written (`jsonText`) as text it reads back as the same value, members in the
//   same order, and writing that again gives the same bytes.

import Foundation
@testable import OpenAIRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let value: JSONValue
    do {
        value = try JSONValue(parsing: Data(bytes))
    } catch let error as DecodingError {
        guard case .dataCorrupted(let context) = error, let syntax = context.underlyingError as? JSONSyntaxError
        else {
            invariant(false, "threw \(error), not a syntax error")
            return 0
        }
        invariant(syntax.offset >= 0 && syntax.offset <= bytes.count, "offset \(syntax.offset) of \(bytes.count)")
        let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
        // Foundation's JSONDecoder does not look into the later value of a repeated member (the first
        // counts): a malformed number or escape there passes it; its JSONSerialization, which reads every
        // value, refuses such text, and so may the SDK's decoder.
        if isUTF8, !bytes.contains(0), !syntax.reason.contains("escape"),
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
            (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        {
            invariant(false, "JSONDecoder reads \(foundation), the SDK's decoder throws \(syntax)")
        }
        return 0
    } catch {
        invariant(false, "threw \(type(of: error)), not DecodingError")
        return 0
    }
    if let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) {
        invariant(sameJSON(foundation, value), "JSONDecoder reads \(foundation), the SDK's decoder \(value)")
    }
    let text = value.jsonText
    guard let again = try? JSONValue(parsing: Data(text.utf8)) else {
        invariant(false, "its own text does not read back: \(text)")
        return 0
    }
    invariant(sameJSON(again, value), "its own text reads back as another value")
    if case .object(let first) = value, case .object(let second) = again {
        invariant(first.keys == second.keys, "the members' order changed")
    }
    invariant(again.jsonText == text, "writing it again gives other bytes")
    return 0
}
