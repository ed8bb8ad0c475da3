// Fuzz target: the partial-JSON decoder (Sources/OpenAIRuntime/StructuredOutputs/PartialJSONDecoder.swift).
//
// The input is JSON text as a model streams it. Invariants:
// - it never traps, and throws only `PartialJSONError`, at an offset within the text read;
// - the text in one piece and in pieces of input-chosen lengths (a value taken after every piece)
//   gives the same value or the same error, and the revision never goes back;
// - a complete value is what `JSONDecoder` reads from the same text, when it reads it, and it
//   decodes through `decode(as:)` (integers and doubles compared as numbers);
// - nesting deeper than `maxDepth` throws instead of exhausting the stack (checked once on a
//   100,000-level input, and by the fuzzer on its own).

import Foundation
@testable import OpenAIRuntime

enum Outcome: Equatable {
    case value(JSONValue)
    case failure(PartialJSONError)
}

func read(_ pieces: [ArraySlice<UInt8>], snapshots: Bool) -> Outcome {
    var decoder = PartialJSONDecoder()
    var revision = decoder.revision
    do {
        for piece in pieces {
            try decoder.append(piece)
            invariant(decoder.revision >= revision, "the revision went back")
            revision = decoder.revision
            if snapshots { _ = decoder.value }
        }
        return .value(try decoder.finish())
    } catch let error as PartialJSONError {
        invariant(error.offset <= decoder.byteCount, "error offset \(error.offset) past \(decoder.byteCount) bytes")
        do {
            try decoder.append([UInt8(ascii: " ")])
            invariant(false, "an append after an error did not throw")
        } catch let again as PartialJSONError {
            invariant(again == error, "an append after an error threw another error")
        } catch {
            invariant(false, "an append after an error threw \(type(of: error))")
        }
        return .failure(error)
    } catch {
        invariant(false, "threw \(type(of: error)), not PartialJSONError")
        return .failure(PartialJSONError(offset: -1, message: ""))
    }
}

/// Deep nesting throws at level `maxDepth + 1`, checked once per process.
let depthLimitHolds: Bool = {
    var decoder = PartialJSONDecoder()
    do {
        try decoder.append([UInt8](repeating: UInt8(ascii: "["), count: 100_000))
        return false
    } catch let error as PartialJSONError {
        return error.offset == PartialJSONDecoder.maxDepth
    } catch {
        return false
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPartialJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    invariant(depthLimitHolds, "100,000 levels of `[` did not throw at level \(PartialJSONDecoder.maxDepth + 1)")
    let bytes = fuzzBytes(data, size)
    let whole = read([bytes[...]], snapshots: false)
    // A snapshot after every piece costs the open path each time: only for short inputs.
    let pieces = read(chunks(bytes, lengths: chunkLengths(from: bytes)), snapshots: bytes.count <= 4096)
    invariant(whole == pieces, "pieces give \(pieces), one piece \(whole)")
    guard case .value(let value) = whole else { return 0 }
    let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    if let foundation {
        invariant(sameJSON(foundation, value), "JSONDecoder reads \(foundation), the partial decoder \(value)")
    }
    var decoder = PartialJSONDecoder()
    try? decoder.append(bytes)
    _ = try? decoder.finish()
    let decoded = decoder.decode(as: JSONValue.self)
    invariant(decoded.map { sameJSON($0, value) } ?? false, "decode(as: JSONValue.self) differs from the value")
    return 0
}
