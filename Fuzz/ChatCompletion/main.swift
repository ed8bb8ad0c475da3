// Fuzz target: a reply's bytes decoded as the generated `CreateChatCompletionResponse` and, as a
// stream's event, `CreateChatCompletionStreamResponse`, leniently and strictly (the invariants are
// in Fuzz/GeneratedTypes/GeneratedTypeFuzzing.swift).

import Foundation
import OpenAI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChatCompletion(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(fuzzBytes(data, size))
    fuzzDecoding(CreateChatCompletionResponse.self, bytes)
    fuzzDecoding(CreateChatCompletionStreamResponse.self, bytes)
    return 0
}
