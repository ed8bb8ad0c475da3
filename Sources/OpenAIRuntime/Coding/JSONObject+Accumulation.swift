import Foundation

extension JSONObject {
    /// Adds the members of a stream delta, as the stream accumulators of OpenAI's SDKs assemble
    /// members they do not know: a string is appended to the string so far (`reasoning_content`,
    /// `audio.transcript`; base64 `data` joined as bytes), an object is merged member by member, an
    /// array whose elements are objects with an integer `index` is merged element by element by
    /// that index (`reasoning_details`), another array is appended; `index`, `type` and `id` and
    /// other values replace the value so far, and `null` changes nothing.
    ///
    /// Strings and arrays grow in place: a stream costs time linear in its length.
    package mutating func accumulate(delta: JSONObject) {
        for (key, value) in delta where value != .null {
            guard let position = index(forKey: key), storage!.values[position] != .null else {
                self[key] = value
                continue
            }
            // Out of the object while it grows, so that its storage is not shared.
            modifyValue(at: position) { Self.accumulate(&$0, value, key: key) }
        }
    }

    /// Takes the members of a later snapshot (a chunk's or a choice's members): an object is
    /// merged member by member, other values replace the value so far, `null` changes nothing.
    package mutating func update(snapshot: JSONObject) {
        for (key, value) in snapshot where value != .null {
            if case .object(var current)? = self[key], case .object(let later) = value {
                current.update(snapshot: later)
                self[key] = .object(current)
            } else {
                self[key] = value
            }
        }
    }

    private static func accumulate(_ current: inout JSONValue, _ delta: JSONValue, key: String) {
        if key == "index" || key == "type" || key == "id" {
            current = delta
            return
        }
        switch delta {
        case .string(let more):
            guard case .string(var text) = current else { break }
            current = .null
            if key == "data", text.hasSuffix("="), let head = Data(base64Encoded: text),
                let tail = Data(base64Encoded: more)
            {
                // Base64 pieces with padding cannot be joined as text.
                text = (head + tail).base64EncodedString()
            } else {
                text += more
            }
            current = .string(text)
            return
        case .object(let more):
            guard case .object(var object) = current else { break }
            current = .null
            object.accumulate(delta: more)
            current = .object(object)
            return
        case .array(let more):
            guard case .array(var elements) = current else { break }
            current = .null
            let indexed = !more.isEmpty && more.allSatisfy { if case .int? = $0["index"] { true } else { false } }
            if indexed {
                for element in more {
                    if let position = elements.firstIndex(where: { $0["index"] == element["index"] }),
                        case .object(var object) = elements[position], case .object(let piece) = element
                    {
                        elements[position] = .null
                        object.accumulate(delta: piece)
                        elements[position] = .object(object)
                    } else {
                        elements.append(element)
                    }
                }
            } else {
                elements.append(contentsOf: more)
            }
            current = .array(elements)
            return
        default:
            break
        }
        current = delta
    }
}
