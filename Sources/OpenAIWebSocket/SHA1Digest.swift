#if canImport(CryptoKit)
    import CryptoKit
#elseif canImport(OpenAIWebSocketOpenSSL)
    import OpenAIWebSocketOpenSSL
#endif

/// SHA-1, needed only for `Sec-WebSocket-Accept` (RFC 6455 section 4.2.2 step 5.4).
///
/// CryptoKit on Apple platforms, OpenSSL's EVP interface on Linux.
enum SHA1Digest {
    /// The 20-byte SHA-1 digest of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The input.
    /// - Returns: The digest, 20 bytes.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(Insecure.SHA1.hash(data: bytes))
        #else
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let status = bytes.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha1(), nil)
            }
            precondition(status == 1, "EVP_Digest(SHA-1) failed")
            return Array(digest.prefix(Int(length)))
        #endif
    }
}
