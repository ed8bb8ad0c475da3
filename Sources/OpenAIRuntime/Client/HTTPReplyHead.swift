import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The head of an HTTP reply as a middleware sees it: ``HTTPResponse`` (a reply read whole) or
/// ``HTTPStreamingResponse`` (a reply whose body is still arriving).
public protocol HTTPReplyHead: Sendable {
    /// The status code.
    var statusCode: Int { get set }
    /// The header fields; compare names without regard to case (RFC 9110 section 5.1).
    var headers: [String: String] { get set }
}

extension HTTPResponse: HTTPReplyHead {}

extension HTTPStreamingResponse: HTTPReplyHead {}
