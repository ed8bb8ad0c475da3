import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which redirects ``URLSessionTransport`` follows, and what it sends along: a pure function of
/// the original request and the redirected one, tested without I/O.
///
/// - A redirect that turns a request of another method into a `GET` or `HEAD` (301, 302 or 303 of
///   a `POST`) is not followed: the request would be lost and the reply of the `GET` (a page, a
///   listing) read as the reply of the `POST`; the 3xx is thrown with its `Location`.
/// - A redirect that keeps a request body (307 or 308, or 301/302 of a method other than `POST`)
///   is not followed by URLSession, which would drop the body (FoundationNetworking) or re-send it
///   anywhere: the 3xx reply comes back to the client, which sends the request again, body and
///   all, when `Location` has the same origin and the body can be sent again (``OpenAIClient``, up
///   to 5 hops), and throws ``OpenAIError`` with the status and `Location` otherwise.
/// - A redirect to another origin that keeps a method other than `GET` or `HEAD` (a 307 of a
///   body-less `DELETE`) is not followed either: the 3xx is thrown.
/// - A redirect of a `GET` or `HEAD` to the same origin (scheme, host and port, RFC 6454) is followed as URLSession
///   builds it; to another origin it is followed without the credential headers of
///   ``HTTPHeaders/isCrossOriginStripped(_:)`` (`Authorization`, `api-key`, `OpenAI-Organization`,
///   `OpenAI-Project`, cookies, ...).
/// - Once a chain has left the original origin, the headers stay stripped even when it comes
///   back.
enum RedirectPolicy {
    /// The most same-origin 307/308 redirects the client follows for one call (retries included).
    static let maxBodyRedirects = 5

    /// The request to follow the redirect with, or `nil` to stop and return the 3xx reply.
    ///
    /// - Parameters:
    ///   - original: The URL of the request as the SDK sent it.
    ///   - originalMethod: The method of the request as the SDK sent it.
    ///   - redirect: The request URLSession built for the redirect.
    ///   - hasBody: Whether the SDK's request had a body.
    static func follow(from original: URL, method originalMethod: String, to redirect: URLRequest, hasBody: Bool)
        -> URLRequest?
    {
        guard let target = redirect.url else { return nil }
        let method = (redirect.httpMethod ?? "GET").uppercased()
        let readOnly: Set<String> = ["GET", "HEAD"]
        // A POST that URLSession would turn into a GET (301, 302, 303).
        if !readOnly.contains(originalMethod.uppercased()), readOnly.contains(method) { return nil }
        let keepsBody = hasBody && method != "GET" && method != "HEAD"
        if keepsBody || redirect.httpBody != nil || redirect.httpBodyStream != nil { return nil }
        if sameOrigin(original, target) { return redirect }
        // Another origin gets a GET or HEAD only (a body-less DELETE or POST is not re-sent there).
        guard method == "GET" || method == "HEAD" else { return nil }
        var stripped = redirect
        for name in redirect.allHTTPHeaderFields?.keys ?? [:].keys
        where HTTPHeaders.isCrossOriginStripped(name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    /// The URL a 307 or 308 reply to a request for `url` redirects to when the client sends the
    /// request again itself: its `Location`, resolved against `url`, when it has the same origin;
    /// `nil` otherwise.
    static func sameOriginLocation(of response: HTTPResponse, for url: URL) -> URL? {
        guard response.statusCode == 307 || response.statusCode == 308,
            let location = response.value(forHeader: "Location"),
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            sameOrigin(url, target)
        else { return nil }
        return target
    }

    /// Whether two URLs have the same origin: scheme, host and port (the scheme's default port
    /// when none is given), compared without regard to case.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased(), schemeA == schemeB,
            let hostA = a.host?.lowercased(), let hostB = b.host?.lowercased(), hostA == hostB
        else { return false }
        return (a.port ?? defaultPort(schemeA)) == (b.port ?? defaultPort(schemeB))
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
