import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Puts a request's header fields on a `URLRequest`.
///
/// FoundationNetworking's `setValue(_:forHTTPHeaderField:)` capitalizes the name (`.capitalized`),
/// compares it with every field already set (lowercasing both) and copies the fields, for each
/// call: for the dozen fields of an SDK request, it cost more than the rest of the request's
/// building together. On Linux the fields are therefore built here, with the same result, and set
/// at once: names capitalized the same way (each spelling once per process), a value that
/// `setValue` would refuse (NUL, CR or LF) sending the request through `setValue` after all.
enum URLRequestHeaderFields {
    /// Sets `headers` on `request`, as `setValue(_:forHTTPHeaderField:)` for each would.
    static func set(_ headers: [String: String], on request: inout URLRequest) {
        #if canImport(FoundationNetworking)
            if let fields = fields(headers) {
                if !fields.isEmpty { request.allHTTPHeaderFields = fields }
                return
            }
        #endif
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    }

    /// The fields FoundationNetworking's `setValue(_:forHTTPHeaderField:)` would store for
    /// `headers`, in order: capitalized names, the last value of a name given in several spellings;
    /// `nil` when a name is not ASCII or a value holds NUL, CR or LF (for `setValue` to judge).
    static func fields(_ headers: [String: String]) -> [String: String]? {
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard name.utf8.allSatisfy({ $0 < 0x80 }),
                !value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D })
            else { return nil }
            // ASCII names that are the same without regard to case capitalize alike.
            fields[capitalized(name)] = value
        }
        return fields
    }

    /// The spellings capitalized so far: a client sends the same few dozen names again and again.
    private static let capitalizedNames = Locked([String: String]())

    /// The most spellings kept, so that names made up per request cannot grow the table without
    /// end.
    private static let maxCachedNames = 512

    /// `name.capitalized`, remembered.
    static func capitalized(_ name: String) -> String {
        if let known = capitalizedNames.withLock({ $0[name] }) { return known }
        let result = name.capitalized
        capitalizedNames.withLock { names in
            if names.count < maxCachedNames { names[name] = result }
        }
        return result
    }
}
