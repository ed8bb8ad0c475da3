import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body arrives in chunks.
public struct HTTPStreamingResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// Header fields.
    public var headers: [String: String]
    /// The body, chunk by chunk as received; it throws ``OpenAIError`` when the connection fails.
    public var body: AsyncThrowingStream<Data, any Swift.Error>
    /// Closes the connection from any task, so that a pending read of ``body`` ends at once
    /// (``OpenAIStream/close()``); `nil` when the transport has no such handle.
    public var close: (@Sendable () -> Void)?

    /// Creates a streaming response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: Header fields.
    ///   - body: The body chunks.
    ///   - close: Closes the connection from any task.
    public init(
        statusCode: Int, headers: [String: String], body: AsyncThrowingStream<Data, any Swift.Error>,
        close: (@Sendable () -> Void)? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.close = close
    }

    /// The value of the header field `name`, compared without regard to case.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPStreamingResponse: CustomStringConvertible, CustomReflectable {
    /// The status and the headers with credentials redacted.
    public var description: String { "HTTP \(statusCode) \(HTTPHeaders.redacted(headers)) (streamed)" }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["statusCode": statusCode, "headers": HTTPHeaders.redacted(headers)])
    }
}
