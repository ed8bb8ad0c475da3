import Foundation

/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for webhook signatures.
///
/// Foundation on Linux has no digest API and CryptoKit is Apple-only; linking libcrypto through a
/// system-library target would add a C dependency to the core SDK for one 32-byte MAC per
/// webhook. This small implementation is checked against the FIPS 180-4 and RFC 4231 test
/// vectors and OpenAI's signed webhook vector.
enum HMACSHA256 {
    fileprivate static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The SHA-256 digest of `bytes` (32 bytes).
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = Hasher256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104; 64-byte block).
    static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { authenticationCode(key: key, parts: [$0]) }
    }

    /// HMAC-SHA256 of the concatenation of `parts` under `key`, without copying them together:
    /// a webhook's `"{id}.{timestamp}."` prefix and its body are hashed where they lie.
    static func authenticationCode(key: [UInt8], parts: [UnsafeRawBufferPointer]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = Hasher256()
        block.map { $0 ^ 0x36 }.withUnsafeBytes { inner.update($0) }
        for part in parts { inner.update(part) }
        let innerDigest = inner.finalize()
        var outer = Hasher256()
        block.map { $0 ^ 0x5c }.withUnsafeBytes { outer.update($0) }
        innerDigest.withUnsafeBytes { outer.update($0) }
        return outer.finalize()
    }

    /// Compares two byte strings in time that depends only on their lengths.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// An incremental SHA-256: ``update(_:)`` with the bytes in pieces of any size, then
    /// ``finalize()``. Works on 64-byte blocks in place, allocating nothing per block.
    struct Hasher256 {
        private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        /// Bytes of an incomplete block.
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            length &+= UInt64(bytes.count)
            var offset = 0
            if !pending.isEmpty {
                let take = min(64 - pending.count, bytes.count)
                pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
                offset = take
                guard pending.count == 64 else { return }
                pending.withUnsafeBytes { compress($0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
            while bytes.count - offset >= 64 {
                compress(base + offset)
                offset += 64
            }
            if offset < bytes.count {
                pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
            }
        }

        mutating func finalize() -> [UInt8] {
            let bitLength = length &* 8
            var tail: [UInt8] = [0x80]
            while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            let savedLength = length
            tail.withUnsafeBytes { update($0) }
            length = savedLength
            let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
            return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
        }

        private mutating func compress(_ block: UnsafeRawPointer) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for i in 0..<16 {
                    w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                }
                for i in 16..<64 {
                    let s0 = HMACSHA256.rotr(w[i - 15], 7) ^ HMACSHA256.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = HMACSHA256.rotr(w[i - 2], 17) ^ HMACSHA256.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = state
                for i in 0..<64 {
                    let t1 =
                        h &+ (HMACSHA256.rotr(e, 6) ^ HMACSHA256.rotr(e, 11) ^ HMACSHA256.rotr(e, 25))
                        &+ ((e & f) ^ (~e & g)) &+ HMACSHA256.k[i] &+ w[i]
                    let t2 =
                        (HMACSHA256.rotr(a, 2) ^ HMACSHA256.rotr(a, 13) ^ HMACSHA256.rotr(a, 22))
                        &+ ((a & b) ^ (a & c) ^ (b & c))
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
                state = (
                    state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                    state.7 &+ h
                )
            }
        }
    }

    fileprivate static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
