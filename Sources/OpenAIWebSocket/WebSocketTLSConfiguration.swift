/// Certificate verification for `wss://`: always on (chain and host name); these options only add
/// trust roots, for example a test CA.
public struct WebSocketTLSConfiguration: Sendable {
    /// Extra trusted root certificates as PEM text (one or more `BEGIN CERTIFICATE` blocks).
    public var additionalTrustRootsPEM: String?
    /// A path to a PEM file of extra trusted root certificates.
    public var additionalTrustRootsFile: String?
    /// Whether the system's default roots are trusted too (default `true`).
    public var trustsSystemRoots: Bool

    /// Creates TLS options.
    ///
    /// - Parameters:
    ///   - additionalTrustRootsPEM: Extra roots as PEM text.
    ///   - additionalTrustRootsFile: Path to a PEM file of extra roots.
    ///   - trustsSystemRoots: Whether to trust the system roots too (default `true`).
    public init(
        additionalTrustRootsPEM: String? = nil,
        additionalTrustRootsFile: String? = nil,
        trustsSystemRoots: Bool = true
    ) {
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
        self.additionalTrustRootsFile = additionalTrustRootsFile
        self.trustsSystemRoots = trustsSystemRoots
    }
}
