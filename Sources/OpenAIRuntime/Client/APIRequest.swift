import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request being built by a generated operation method: the path template with its parameters,
/// the query, the body and the security scheme. The client turns it into an ``HTTPRequest``.
package struct APIRequest: Sendable {
    /// Which credential an operation uses (the spec's security schemes).
    package enum Authentication: Sendable {
        /// `ApiKeyAuth`: the project API key.
        case apiKey
        /// `AdminApiKeyAuth`: the organization admin key.
        case adminAPIKey
    }

    var method: String
    /// The path below the base URL, with parameters already substituted and percent-encoded.
    private(set) var path: String
    var operationID: String
    var authentication: Authentication
    var query: [URLQueryItem] = []
    /// The body: bytes, or a stream that the multipart encoder or an upload helper provides.
    var httpBody: HTTPBody?
    var contentType: String?
    package var accept = "application/json"
    var headers: [String: String] = [:]
    /// JSON body members the SDK set because the caller left them unset (`encoding_format` of
    /// embeddings); the reply's decoder gets them as `userInfo[.openAIDefaultedRequestMembers]`.
    package var defaultedBodyMembers: Set<String> = []
    /// The `model` field of a multipart body, which routes Azure deployment-scoped operations
    /// (a JSON body's `model` is read from the body itself).
    var bodyModel: String?

    /// Creates a request for the path template `path`, e.g. `/threads/{thread_id}/runs`.
    package init(method: String, path: String, operationID: String, authentication: Authentication = .apiKey) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.authentication = authentication
    }

    /// Substitutes the path parameter `{name}` with `value` as one path segment: every byte of its
    /// UTF-8 form except the unreserved ASCII characters (`A-Z a-z 0-9 - . _ ~`, RFC 3986 section
    /// 2.3) is percent-encoded, so `/`, `?`, `#`, `%`, spaces and non-ASCII text can never change
    /// the path, end it, or address another resource.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when `value` is empty,
    ///   `.` or `..`: an empty segment, or one that clients, proxies and servers remove as a dot
    ///   segment (RFC 3986 section 5.2.4), would address another endpoint
    ///   (`/vector_stores/../files/file-abc` is `DELETE /files/file-abc`).
    package mutating func setPathParameter(_ name: String, _ value: some CustomStringConvertible) throws {
        let segment = try Self.pathSegment(value.description, naming: "The path parameter \(name) of \(operationID)")
        path = path.replacingOccurrences(of: "{\(name)}", with: segment)
    }

    /// `text` as one path segment (``percentEncodedSegment(_:)``), for a path parameter or an
    /// Azure deployment name.
    ///
    /// - Parameter subject: What `text` is, for the error message.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when `text` is empty,
    ///   `.` or `..`.
    static func pathSegment(_ text: String, naming subject: String) throws -> String {
        guard !text.isEmpty, text != ".", text != ".." else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "\(subject) is \(text.isEmpty ? "empty" : "`\(text)`"), which would address another endpoint.")
        }
        return percentEncodedSegment(text)
    }

    /// `text` as a path segment: unreserved ASCII kept, every other UTF-8 byte as `%XX`.
    static func percentEncodedSegment(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// Adds the query parameter `name` when `value` is not `nil`: arrays as `name[]=a&name[]=b`,
    /// objects as `name[key]=value`, booleans as `true`/`false`.
    package mutating func addQuery(_ name: String, _ value: (some Encodable)?) throws {
        guard let value else { return }
        Self.flatten(try JSONValue(encoding: value), name: name, into: &query)
    }

    private static func flatten(_ value: JSONValue, name: String, into items: inout [URLQueryItem]) {
        switch value {
        case .null: break
        case .bool(let value): items.append(URLQueryItem(name: name, value: value ? "true" : "false"))
        case .int(let value): items.append(URLQueryItem(name: name, value: String(value)))
        case .double(let value): items.append(URLQueryItem(name: name, value: String(value)))
        case .string(let value): items.append(URLQueryItem(name: name, value: value))
        case .array(let values):
            // The spec names some parameters with the brackets already (`include[]`).
            let arrayName = name.hasSuffix("[]") ? name : name + "[]"
            for element in values { flatten(element, name: arrayName, into: &items) }
        case .object(let object):
            for key in object.keys.sorted() { flatten(object[key]!, name: "\(name)[\(key)]", into: &items) }
        }
    }

    /// Sets the header field `name` when `value` is not `nil`; arrays are joined with `, `.
    package mutating func addHeader(_ name: String, _ value: (some Encodable)?) throws {
        guard let value else { return }
        var items: [URLQueryItem] = []
        Self.flatten(try JSONValue(encoding: value), name: name, into: &items)
        headers[name] = items.compactMap(\.value).joined(separator: ", ")
    }

    /// Sets a JSON body.
    ///
    /// - Throws: `EncodingError` when the value does not encode.
    package mutating func setJSONBody(_ value: some Encodable) throws {
        body = try Self.encoder.encode(value)
        contentType = "application/json"
    }

    /// Sets a raw body with its content type (e.g. `application/sdp`).
    package mutating func setRawBody(_ data: Data, contentType: String) {
        body = data
        self.contentType = contentType
    }

    /// The body as bytes when it is held in memory; setting it replaces the body.
    var body: Data? {
        get {
            if case .data(let data) = httpBody { return data }
            return nil
        }
        set { httpBody = newValue.map(HTTPBody.data) }
    }

    /// Sets a streamed body with its content type (a multipart form of files, a large upload).
    mutating func setStreamBody(_ stream: HTTPBodyStream, contentType: String) {
        httpBody = .stream(stream)
        self.contentType = contentType
    }

    /// The writer of every JSON request body: members in declaration order, the same bytes in
    /// every process (``OrderedJSONEncoder``).
    static let encoder = OrderedJSONEncoder()
}
