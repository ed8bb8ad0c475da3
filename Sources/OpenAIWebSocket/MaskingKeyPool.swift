#if canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
    import OpenAIWebSocketOpenSSL

    /// Masking keys (RFC 6455 section 5.3: unpredictable, from a strong source of entropy, section
    /// 10.3) drawn from OpenSSL's CSPRNG 256 keys at a time, instead of one `getrandom(2)` system call
    /// per frame.
    struct MaskingKeyPool {
        private var bytes = [UInt8](repeating: 0, count: 1024)
        private var offset = 1024

        /// The next key; falls back to the system generator if OpenSSL cannot supply bytes.
        mutating func next() -> UInt32 {
            if offset == bytes.count {
                let filled = bytes.withUnsafeMutableBufferPointer {
                    RAND_bytes($0.baseAddress, Int32($0.count)) == 1
                }
                guard filled else { return WebSocketFrameEncoder.randomMaskingKey() }
                offset = 0
            }
            defer { offset += 4 }
            return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
    }
#endif
