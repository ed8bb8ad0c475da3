// Fuzz target: a reply's bytes decoded as the generated `ResponseStreamEvent`, leniently and strictly
// (the invariants are in Fuzz/GeneratedTypes/GeneratedTypeFuzzing.swift).

import Foundation
import OpenAI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseStreamEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzDecoding(ResponseStreamEvent.self, Data(fuzzBytes(data, size)))
    return 0
}
