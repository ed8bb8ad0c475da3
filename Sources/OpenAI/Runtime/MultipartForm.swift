import Foundation

/// A `multipart/form-data` body (RFC 7578) being built from a generated form type.
///
/// Fields follow what the OpenAI API expects: arrays as repeated `name[]` parts, objects as
/// `name[key]` parts, booleans as `true`/`false`, numbers in plain decimal.
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var body: Data
    }

    private(set) var parts: [Part] = []

    /// Appends the field `name` when `value` is not `nil`.
    mutating func append(_ name: String, _ value: (some Encodable)?) throws {
        guard let value else { return }
        if let file = value as? FileUpload {
            parts.append(Part(name: name, filename: file.filename, contentType: file.contentType, body: file.data))
            return
        }
        if let files = value as? [FileUpload] {
            for file in files {
                parts.append(Part(name: name + "[]", filename: file.filename, contentType: file.contentType, body: file.data))
            }
            return
        }
        appendJSON(name, try JSONValue(encoding: value))
    }

    private mutating func appendJSON(_ name: String, _ value: JSONValue) {
        switch value {
        case .null: break
        case .bool(let flag): appendText(name, flag ? "true" : "false")
        case .int(let number): appendText(name, String(number))
        case .double(let number): appendText(name, "\(number)")
        case .string(let text): appendText(name, text)
        case .array(let values): for element in values { appendJSON(name + "[]", element) }
        case .object(let object):
            for key in object.keys.sorted() { appendJSON("\(name)[\(key)]", object[key]!) }
        }
    }

    private mutating func appendText(_ name: String, _ text: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, body: Data(text.utf8)))
    }

    /// The encoded body and its `Content-Type` with a boundary that occurs in no part.
    func encoded() -> (body: Data, contentType: String) {
        var boundary = "openai-swift-" + UUID().uuidString
        while parts.contains(where: { $0.body.range(of: Data(boundary.utf8)) != nil }) {
            boundary = "openai-swift-" + UUID().uuidString
        }
        var body = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.escape(filename))\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "\r\n"
            body.append(Data(head.utf8))
            body.append(part.body)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// Escapes a quoted `Content-Disposition` parameter the way browsers do (WHATWG HTML,
    /// multipart/form-data encoding): `"` → `%22`, CR → `%0D`, LF → `%0A`.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case "\r\n": result += "%0D%0A"
            default: result.append(character)
            }
        }
        return result
    }
}

/// A generated request type that can be sent as `multipart/form-data`.
protocol MultipartFormEncodable {
    /// Appends this value's fields to `form`.
    func encode(to form: inout MultipartForm) throws
}

extension APIRequest {
    /// Sets a `multipart/form-data` body.
    mutating func setMultipartBody(_ value: some MultipartFormEncodable) throws {
        var form = MultipartForm()
        try value.encode(to: &form)
        let (data, contentType) = form.encoded()
        body = data
        self.contentType = contentType
    }

    /// Sets a text body (e.g. `application/sdp`).
    mutating func setTextBody(_ text: String, contentType: String) {
        body = Data(text.utf8)
        self.contentType = contentType
    }
}
