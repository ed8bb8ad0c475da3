// Fuzz target: server-sent event framing (Sources/OpenAIRuntime/Streaming/ServerSentEventParser.swift).
//
// The input is a `text/event-stream` body. Invariants:
// - the body in one chunk, in 1-byte chunks and in chunks of input-chosen lengths dispatches the
//   same events (byte for byte) and leaves the same last event ID, reconnection time and pending
//   state;
// - the events are those of a plain reading of WHATWG HTML 9.2.5/9.2.6 (below), which decodes the
//   whole body first and then splits it into lines.

import OpenAIRuntime

/// An event as bytes, so strings compare byte for byte (Swift's `String ==` is canonical
/// equivalence).
struct EventBytes: Equatable {
    var event: [UInt8]?
    var data: [UInt8]
    var id: [UInt8]?
    var retry: Int?

    init(_ event: ServerSentEvent) {
        self.event = event.event.map { Array($0.utf8) }
        data = Array(event.data.utf8)
        id = event.id.map { Array($0.utf8) }
        retry = event.retry
    }
}

/// What a parser run leaves: its events and its state at the end of the input.
struct Outcome: Equatable {
    var events: [EventBytes]
    var lastEventID: [UInt8]
    var reconnectionTime: Int?
    var hasIncompleteEvent: Bool
    var hasPendingData: Bool
    var pendingBytes: [UInt8]
}

func parse(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
    var parser = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    for piece in pieces {
        parser.consume(piece, into: &events)
    }
    let outcome = Outcome(
        events: events.map(EventBytes.init), lastEventID: Array(parser.lastEventID.utf8),
        reconnectionTime: parser.reconnectionTime, hasIncompleteEvent: parser.hasIncompleteEvent,
        hasPendingData: parser.hasPendingData, pendingBytes: parser.pendingBytes(upTo: 1 << 20))
    invariant(parser.pendingByteCount >= outcome.pendingBytes.count, "pendingByteCount below pendingBytes")
    invariant(parser.finish().isEmpty, "finish() dispatched an event")
    invariant(!parser.hasIncompleteEvent, "an incomplete event after finish()")
    return outcome
}

/// WHATWG HTML 9.2.5 and 9.2.6 read literally: decode the body as UTF-8 (one leading BOM removed),
/// split it into lines at CR LF, LF or CR, drop the unterminated last line, interpret each line.
func reference(_ bytes: [UInt8]) -> (events: [EventBytes], lastEventID: [UInt8], reconnectionTime: Int?) {
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    let scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
    var lines: [[Unicode.Scalar]] = []
    var line: [Unicode.Scalar] = []
    var index = 0
    while index < scalars.count {
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" || scalar == "\r" {
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
            lines.append(line)
            line = []
        } else {
            line.append(scalar)
        }
    }
    func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
    var events: [EventBytes] = []
    var data = ""
    var eventType = ""
    var lastEventID = ""
    var reconnectionTime: Int?
    var blockRetry: Int?
    for line in lines {
        if line.isEmpty {
            defer {
                data = ""
                eventType = ""
                blockRetry = nil
            }
            guard !data.isEmpty else { continue }
            data.removeLast()
            let event = ServerSentEvent(
                event: eventType.isEmpty ? nil : eventType, data: data, id: lastEventID.isEmpty ? nil : lastEventID,
                retry: blockRetry)
            events.append(EventBytes(event))
            continue
        }
        if line[0] == ":" { continue }
        let colon = line.firstIndex(of: ":") ?? line.count
        let name = text(line[..<colon])
        var value = line[min(colon + 1, line.count)...]
        if value.first == " " { value = value.dropFirst() }
        switch name {
        case "data": data += text(value) + "\n"
        case "event": eventType = text(value)
        case "id" where !value.contains("\0"): lastEventID = text(value)
        case "retry":
            if !value.isEmpty, value.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(text(value)) {
                reconnectionTime = number
                blockRetry = number
            }
        default: break
        }
    }
    return (events, Array(lastEventID.utf8), reconnectionTime)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let whole = parse([bytes[...]])
    let byteByByte = parse(chunks(bytes, lengths: [1]))
    invariant(whole == byteByByte, "1-byte chunks differ from one chunk")
    let chunked = parse(chunks(bytes, lengths: chunkLengths(from: bytes)))
    invariant(whole == chunked, "input-chosen chunks differ from one chunk")
    let expected = reference(bytes)
    invariant(whole.events == expected.events, "events differ from WHATWG's reading")
    invariant(whole.lastEventID == expected.lastEventID, "last event ID differs from WHATWG's reading")
    invariant(whole.reconnectionTime == expected.reconnectionTime, "reconnection time differs from WHATWG's reading")
    return 0
}
