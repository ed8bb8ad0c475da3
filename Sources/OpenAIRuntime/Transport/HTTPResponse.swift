import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP response as the transport received it, its body read whole.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// Header fields; look them up with ``value(forHeader:)``, which ignores case.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: Header fields.
    ///   - body: The body bytes.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name`, compared without regard to case (RFC 9110 section 5.1).
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The status, the headers with credentials (`Set-Cookie`, ...) redacted and the body's size.
    public var description: String {
        "HTTP \(statusCode) \(HTTPHeaders.redacted(headers)) (\(body.count) bytes)"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the headers with credentials redacted and the body's size.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["statusCode": statusCode, "headers": HTTPHeaders.redacted(headers), "bodyBytes": body.count])
    }
}
