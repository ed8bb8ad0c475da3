import Foundation
import OpenAIRuntime

extension JSONObject {
    /// Adds the members of a stream delta, as the stream accumulators of OpenAI's SDKs assemble
    /// members they do not know: a string is appended to the string so far (`reasoning_content`,
    /// `audio.transcript`), an object is merged member by member, an array whose elements are
    /// objects with an integer `index` is merged element by element by that index
    /// (`reasoning_details`), another array is appended; `index`, `type` and `id` and other values
    /// replace the value so far, and `null` changes nothing.
    mutating func accumulate(delta: JSONObject) {
        for (key, value) in delta where value != .null {
            guard let current = self[key], current != .null else {
                self[key] = value
                continue
            }
            self[key] = Self.accumulated(current, value, key: key)
        }
    }

    /// Takes the members of a later snapshot (a chunk's or a choice's members): an object is
    /// merged member by member, other values replace the value so far, `null` changes nothing.
    mutating func update(snapshot: JSONObject) {
        for (key, value) in snapshot where value != .null {
            if case .object(var current)? = self[key], case .object(let later) = value {
                current.update(snapshot: later)
                self[key] = .object(current)
            } else {
                self[key] = value
            }
        }
    }

    private static func accumulated(_ current: JSONValue, _ delta: JSONValue, key: String) -> JSONValue {
        if key == "index" || key == "type" || key == "id" { return delta }
        switch (current, delta) {
        case (.string(let text), .string(let more)):
            return .string(key == "data" ? Self.joinedBase64(text, more) : text + more)
        case (.object(var object), .object(let more)):
            object.accumulate(delta: more)
            return .object(object)
        case (.array(var elements), .array(let more)):
            let indexed = more.allSatisfy { if case .int? = $0["index"] { true } else { false } }
            guard indexed, !more.isEmpty else { return .array(elements + more) }
            for element in more {
                if let position = elements.firstIndex(where: { $0["index"] == element["index"] }),
                    case .object(var object) = elements[position], case .object(let piece) = element
                {
                    object.accumulate(delta: piece)
                    elements[position] = .object(object)
                } else {
                    elements.append(element)
                }
            }
            return .array(elements)
        default:
            return delta
        }
    }

    /// Two pieces of base64 text as one: joined as text when the first has no padding (each piece
    /// a whole number of 3-byte groups, as OpenAI streams audio), else re-encoded from the bytes.
    private static func joinedBase64(_ first: String, _ second: String) -> String {
        guard first.hasSuffix("="), let head = Data(base64Encoded: first), let tail = Data(base64Encoded: second)
        else { return first + second }
        return (head + tail).base64EncodedString()
    }
}
