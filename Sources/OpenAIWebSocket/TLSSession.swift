#if canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
    import OpenAIWebSocketOpenSSL

    /// A client TLS session driven through OpenSSL memory BIOs: it transforms bytes and does no I/O.
    ///
    /// The socket I/O stays in ``SocketConnection`` (non-blocking `send` with `MSG_NOSIGNAL`, so a
    /// closed peer cannot raise SIGPIPE), which also lets one thread own reads and writes of the
    /// `SSL` object. Verification is always on: system roots plus optional extra roots,
    /// `SSL_VERIFY_PEER`, host name via `SSL_set1_host`, SNI via `SSL_set_tlsext_host_name`.
    /// Used only from the connection's I/O thread.
    final class TLSSession {
        private let context: OpaquePointer
        private let ssl: OpaquePointer
        private let input: OpaquePointer
        private let output: OpaquePointer

        /// Creates a session for `host`.
        ///
        /// - Parameters:
        ///   - host: The server name to verify and to send as SNI (not sent for IP literals).
        ///   - configuration: Extra trust roots.
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/tlsFailed`` when OpenSSL cannot be
        ///   set up or the extra roots cannot be loaded.
        init(host: String, configuration: WebSocketTLSConfiguration) throws(WebSocketError) {
            guard let context = SSL_CTX_new(TLS_client_method()) else {
                throw WebSocketError(.tlsFailed, "SSL_CTX_new failed: \(Self.errorQueue())")
            }
            self.context = context
            _ = copenssl_SSL_CTX_set_min_proto_version(context, copenssl_TLS1_2_VERSION())
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if configuration.trustsSystemRoots {
                SSL_CTX_set_default_verify_paths(context)
            }
            if let file = configuration.additionalTrustRootsFile {
                guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                    SSL_CTX_free(context)
                    throw WebSocketError(
                        .tlsFailed, "cannot load trust roots from \(file): \(Self.errorQueue())")
                }
            }
            if let pem = configuration.additionalTrustRootsPEM {
                let store = SSL_CTX_get_cert_store(context)
                var added = 0
                let bytes = Array(pem.utf8)
                bytes.withUnsafeBytes { raw in
                    let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
                    while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                        if X509_STORE_add_cert(store, certificate) == 1 { added += 1 }
                        X509_free(certificate)
                    }
                    BIO_free(bio)
                }
                ERR_clear_error()
                guard added > 0 else {
                    SSL_CTX_free(context)
                    throw WebSocketError(.tlsFailed, "additionalTrustRootsPEM holds no certificate")
                }
            }
            guard let ssl = SSL_new(context), let input = BIO_new(BIO_s_mem()),
                let output = BIO_new(BIO_s_mem())
            else {
                SSL_CTX_free(context)
                throw WebSocketError(.tlsFailed, "SSL_new failed: \(Self.errorQueue())")
            }
            self.ssl = ssl
            self.input = input
            self.output = output
            SSL_set_bio(ssl, input, output)
            SSL_set_connect_state(ssl)
            // SSL_set1_host checks DNS names, and IP SANs for IP literals (OpenSSL 3).
            SSL_set1_host(ssl, host)
            if !Self.isIPLiteral(host) {
                _ = copenssl_SSL_set_tlsext_host_name(ssl, host)
            }
        }

        deinit {
            SSL_free(ssl)  // also frees both BIOs
            SSL_CTX_free(context)
        }

        private static func isIPLiteral(_ host: String) -> Bool {
            host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        }

        /// Advances the handshake.
        ///
        /// - Returns: `true` when the handshake is complete, `false` when it needs more input.
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/tlsVerificationFailed`` with
        ///   OpenSSL's verification reason, or ``WebSocketError/Kind/tlsFailed``.
        func handshake() throws(WebSocketError) -> Bool {
            ERR_clear_error()
            let result = SSL_do_handshake(ssl)
            if result == 1 { return true }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                let reason = String(cString: X509_verify_cert_error_string(verify))
                throw WebSocketError(
                    .tlsVerificationFailed,
                    "certificate verification failed: \(reason) (X509_V_ERR \(verify))")
            }
            throw WebSocketError(.tlsFailed, "TLS handshake failed: \(Self.errorQueue())")
        }

        /// Hands ciphertext received from the socket to OpenSSL.
        ///
        /// - Parameters:
        ///   - ciphertext: Bytes read from the socket.
        func feed(_ ciphertext: UnsafeRawBufferPointer) {
            guard !ciphertext.isEmpty else { return }
            _ = BIO_write(input, ciphertext.baseAddress, Int32(ciphertext.count))
        }

        /// Moves ciphertext OpenSSL produced into `wire`.
        ///
        /// - Parameters:
        ///   - wire: The buffer of bytes to send on the socket.
        func drainOutput(into wire: inout [UInt8]) {
            var chunk = [UInt8](repeating: 0, count: 16384)
            while BIO_ctrl_pending(output) > 0 {
                let count = chunk.withUnsafeMutableBytes {
                    BIO_read(output, $0.baseAddress, Int32($0.count))
                }
                guard count > 0 else { break }
                wire.append(contentsOf: chunk[0..<Int(count)])
            }
        }

        /// Encrypts `plaintext`; the ciphertext is then available from ``drainOutput(into:)``.
        ///
        /// - Parameters:
        ///   - plaintext: Application bytes.
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/tlsFailed`` if OpenSSL refuses.
        func write(_ plaintext: [UInt8]) throws(WebSocketError) {
            var offset = 0
            while offset < plaintext.count {
                ERR_clear_error()
                let count = plaintext.withUnsafeBytes {
                    SSL_write(ssl, $0.baseAddress! + offset, Int32(min($0.count - offset, 1 << 30)))
                }
                guard count > 0 else {
                    throw WebSocketError(.tlsFailed, "SSL_write failed: \(Self.errorQueue())")
                }
                offset += Int(count)
            }
        }

        /// Decrypts whatever complete records have been fed.
        ///
        /// - Parameters:
        ///   - plaintext: Receives the decrypted bytes.
        /// - Returns: `true` when the peer sent close_notify (end of stream).
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/tlsFailed`` on a TLS error.
        func read(into plaintext: inout [UInt8]) throws(WebSocketError) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                ERR_clear_error()
                let count = chunk.withUnsafeMutableBytes {
                    SSL_read(ssl, $0.baseAddress, Int32($0.count))
                }
                if count > 0 {
                    plaintext.append(contentsOf: chunk[0..<Int(count)])
                    continue
                }
                let error = SSL_get_error(ssl, count)
                if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
                if error == SSL_ERROR_ZERO_RETURN { return true }
                throw WebSocketError(.tlsFailed, "SSL_read failed: \(Self.errorQueue())")
            }
        }

        /// Queues a close_notify alert (best effort).
        func shutdown() {
            _ = SSL_shutdown(ssl)
        }

        /// OpenSSL's error queue as text, emptied.
        static func errorQueue() -> String {
            var messages: [String] = []
            while case let code = ERR_get_error(), code != 0 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                messages.append(String(decoding: bytes, as: UTF8.self))
            }
            return messages.isEmpty ? "no OpenSSL error reported" : messages.joined(separator: "; ")
        }
    }
#endif
