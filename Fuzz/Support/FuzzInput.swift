// Shared by every fuzz target (Scripts/check/fuzz.sh compiles it into each): the input as bytes, the
// chunkings a target replays it in, and the check that turns a broken invariant into a crash
// libFuzzer records.

/// Stops the run with `message` on standard error when `condition` is false: a broken invariant is
/// a crash, and libFuzzer saves the input that caused it.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}

/// The bytes libFuzzer passes, copied (the pointer is only valid during the call).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// `bytes` cut into pieces whose lengths cycle through `lengths` (each at least 1): a chunking
/// that depends on the input, so the fuzzer explores where pieces end.
func chunks(_ bytes: [UInt8], lengths: [Int]) -> [ArraySlice<UInt8>] {
    let lengths = lengths.isEmpty ? [1] : lengths.map { max(1, $0) }
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    var turn = 0
    while start < bytes.count {
        let end = min(bytes.count, start + lengths[turn % lengths.count])
        pieces.append(bytes[start..<end])
        start = end
        turn += 1
    }
    return pieces
}

/// The chunk lengths taken from the input's first bytes (1 to 16 bytes each), for ``chunks(_:lengths:)``.
func chunkLengths(from bytes: [UInt8]) -> [Int] {
    bytes.prefix(8).map { Int($0 % 16) + 1 }
}
