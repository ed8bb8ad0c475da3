import Foundation

/// A `multipart/form-data` form (RFC 7578) being built from a generated form type, field by field.
///
/// The spec gives these forms no `encoding`, so the conventions are the ones OpenAI's own SDKs
/// send (openai-python, openai-node):
/// - arrays as repeated `name[]` parts (`image[]` once per image), objects as `name[key]` parts
///   (nested: `name[a][b]`, arrays of objects `name[][key]`), keys of an object sorted;
/// - booleans `true`/`false`, integers in decimal, other numbers in plain decimal;
/// - a ``FileUpload`` (or `Data`) anywhere in a value becomes a file part;
/// - absent and `null` values send no part (a form has no `null`);
/// - the fields of ``jsonFields`` are sent whole as one `application/json` part (the realtime
///   call's `session`, which the API documents as a JSON string);
/// - text parts come first, in the order the fields were appended, then the file parts, as
///   openai-python (httpx) sends them, so the server sees every option before the large bytes.
package struct MultipartForm: Sendable {
    /// One part of the form.
    struct Part: Sendable {
        /// The field name, e.g. `image[]`.
        var name: String
        /// The filename of a file part.
        var filename: String?
        /// The part's `Content-Type`; none for a text field (RFC 7578 section 4.4: `text/plain`).
        var contentType: String?
        var content: Content
    }

    /// Where a part's bytes come from.
    enum Content: Sendable {
        case text(Data)
        case file(FileUpload)
    }

    /// Fields sent as one JSON part, by operationId (the API's documented conventions).
    static let jsonFieldsByOperation: [String: Set<String>] = ["create-realtime-call": ["session"]]

    private(set) var textParts: [Part] = []
    private(set) var fileParts: [Part] = []
    /// The names of the fields sent whole as JSON.
    var jsonFields: Set<String> = []

    /// The parts in the order they are sent.
    var parts: [Part] { textParts + fileParts }

    /// Creates an empty form.
    ///
    /// - Parameter operationID: The operation the form is for; selects its ``jsonFields``.
    init(operationID: String? = nil) {
        if let operationID { jsonFields = Self.jsonFieldsByOperation[operationID] ?? [] }
    }

    /// Appends the field `name` when `value` is not `nil`.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` for a non-finite
    ///   number; `EncodingError` when a JSON field does not encode.
    package mutating func append(_ name: String, _ value: (some Encodable)?) throws {
        guard let value else { return }
        if jsonFields.contains(name) {
            let json = try APIRequest.encoder.encode(value)
            textParts.append(Part(name: name, filename: nil, contentType: "application/json", content: .text(json)))
            return
        }
        flatten(try MultipartFieldEncoder.encode(value, codingPath: [AnyCodingKey(name)]), name: name)
    }

    private mutating func flatten(_ value: FormValue, name: String) {
        switch value {
        case .absent: break
        case .text(let text):
            textParts.append(Part(name: name, filename: nil, contentType: nil, content: .text(Data(text.utf8))))
        case .file(let file):
            fileParts.append(
                Part(name: name, filename: file.filename, contentType: file.contentType, content: .file(file)))
        case .array(let elements):
            for element in elements { flatten(element, name: name + "[]") }
        case .object(let members):
            for member in members.sorted(by: { $0.key < $1.key }) {
                flatten(member.value, name: "\(name)[\(member.key)]")
            }
        }
    }

    /// Lays the form out as a body.
    ///
    /// - Parameter boundary: The boundary to use (golden tests); by default a random one that
    ///   occurs in no in-memory part.
    /// - Returns: The body, its length known.
    func body(boundary: String? = nil) -> MultipartBody {
        MultipartBody(parts: parts, boundary: boundary ?? MultipartBody.randomBoundary(avoiding: parts))
    }
}

extension APIRequest {
    /// Sets a `multipart/form-data` body: a small form of in-memory values as bytes, any other
    /// form as a stream produced while it is sent (files read from disk in 64 KiB chunks), with
    /// its `Content-Length` known up front. The stream is replayable, so the request can be
    /// retried, unless a file is a one-shot stream (``FileUpload/init(stream:length:filename:contentType:)``).
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when a field cannot
    ///   be encoded or a streamed file was already sent.
    package mutating func setMultipartBody(_ value: some MultipartFormEncodable) throws {
        var form = MultipartForm(operationID: operationID)
        try value.encode(to: &form)
        bodyModel = form.textParts.first { $0.name == "model" }.flatMap { part in
            guard case .text(let data) = part.content else { return nil }
            return String(data: data, encoding: .utf8)
        }
        let multipart = form.body()
        if multipart.isInMemory && multipart.length <= MultipartBody.inMemoryLimit {
            body = try multipart.collectData()
            contentType = multipart.contentType
        } else {
            setStreamBody(multipart.httpBodyStream(), contentType: multipart.contentType)
        }
    }

    /// Sets a text body (e.g. `application/sdp`).
    package mutating func setTextBody(_ text: String, contentType: String) {
        body = Data(text.utf8)
        self.contentType = contentType
    }
}
