import Foundation

/// What an error reply's body says, read leniently: OpenAI's `{"error": {...}}` envelope (schema
/// `Error`), and the shapes other servers send in its place: the same members without the
/// wrapper, `{"error": "text"}`, FastAPI's `{"detail": ...}`, `{"errors": [...]}`, plain text and
/// HTML pages from proxies and load balancers. Members of another type than the spec says (a
/// numeric `code`, an array `param`) are kept as compact JSON instead of dropping the envelope.
struct ErrorBody: Equatable {
    var message: String?
    var type: String?
    var code: String?
    var param: String?

    /// The most characters of a text or HTML body used as the message.
    static let maxMessageCharacters = 512

    init(message: String? = nil, type: String? = nil, code: String? = nil, param: String? = nil) {
        self.message = message
        self.type = type
        self.code = code
        self.param = param
    }

    /// Reads `data`, the (bounded) body of an error reply.
    init(_ data: Data) {
        if let json = try? JSONValue(parsing: data) {
            self = Self(json)
            if message != nil || code != nil || type != nil { return }
        } else {
            self = Self()
        }
        message = Self.textMessage(String(decoding: data.prefix(URLSessionTransport.maxErrorBodyBytes), as: UTF8.self))
    }

    /// Reads a JSON error payload.
    init(_ json: JSONValue) {
        self.init()
        switch json {
        case .string(let text):
            message = Self.trimmed(text)
        case .object(let object):
            if let nested = object["error"]?.objectValue {
                read(nested)
            } else if case .string(let text)? = object["error"] {
                read(object)
                message = Self.trimmed(text)
            } else if object["message"] != nil || object["code"] != nil {
                read(object)
            } else if let detail = object["detail"] {
                message = Self.detail(detail)
            } else if let first = object["errors"]?.arrayValue?.first {
                self = Self(first.objectValue.map { .object(["error": .object($0)]) } ?? first)
            }
        default:
            break
        }
    }

    private mutating func read(_ object: JSONObject) {
        message = object["message"].flatMap(Self.text) ?? message
        type = object["type"]?.stringValue
        code = object["code"].flatMap(Self.text)
        param = object["param"].flatMap(Self.text)
    }

    /// A member as text: a string as it is, a number or structure as compact JSON; `nil` for null.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .int(let number): return String(number)
        default: return value.compactJSON(limit: 200)
        }
    }

    /// FastAPI's `detail`: a string, or a list of `{"loc": [...], "msg": ...}`.
    private static func detail(_ value: JSONValue) -> String? {
        if let text = value.stringValue { return trimmed(text) }
        let messages = (value.arrayValue ?? []).compactMap { $0["msg"]?.stringValue ?? $0["message"]?.stringValue }
        return messages.isEmpty ? text(value) : trimmed(messages.joined(separator: "; "))
    }

    /// The message of a body that is not JSON: an HTML page's `<title>` (or its text without tags),
    /// or the text itself; whitespace collapsed, at most ``maxMessageCharacters``.
    static func textMessage(_ body: String) -> String? {
        // Searched case-insensitively in `body` itself: a lowercased copy can differ in length
        // (`İ` lowercases to two scalars), so its indices are not indices of `body`.
        if ["<html", "<title", "<body"].contains(where: { body.range(of: $0, options: .caseInsensitive) != nil }) {
            if let start = body.range(of: "<title", options: .caseInsensitive),
                let open = body[start.upperBound...].firstIndex(of: ">"),
                let end = body[open...].range(of: "</title>", options: .caseInsensitive)
            {
                let title = body[body.index(after: open)..<end.lowerBound]
                if let text = trimmed(String(title)) { return text }
            }
            var text = ""
            var inTag = false
            for character in body {
                if character == "<" {
                    inTag = true
                } else if character == ">" {
                    inTag = false; text.append(" ")
                } else if !inTag {
                    text.append(character)
                }
            }
            return trimmed(text)
        }
        return trimmed(body)
    }

    private static func trimmed(_ text: String) -> String? {
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        return collapsed.count > maxMessageCharacters ? String(collapsed.prefix(maxMessageCharacters)) + "…" : collapsed
    }
}
