import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as the transport sends it.
///
/// Its descriptions and its mirror (`dump`) redact the credential headers (`Authorization`,
/// `api-key`).
public struct HTTPRequest: Sendable {
    /// The HTTP method, e.g. `"POST"`.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields, by name as sent.
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: HTTPBody?
    /// Called as the body is sent with the bytes sent so far and the total, when known.
    public var uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields.
    ///   - body: The body, or `nil` for none.
    ///   - uploadProgress: Called with bytes sent and total bytes as the body goes out.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: HTTPBody? = nil,
        uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.uploadProgress = uploadProgress
    }

    /// The value of the header field `name`, compared without regard to case.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method, URL and headers with credentials redacted.
    public var description: String {
        "\(method) \(Redaction.url(url)) \(HTTPHeaders.redacted(headers))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": Redaction.url(url), "headers": HTTPHeaders.redacted(headers),
                "bodyLength": body?.length as Any,
            ])
    }
}
