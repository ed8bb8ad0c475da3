#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(WinSDK)
    import ucrt
#endif

/// A byte-level state machine that turns a `text/event-stream` body into ``ServerSentEvent``s.
///
/// The parser performs no I/O: feed it the body's bytes in chunks of any size with
/// ``consume(_:)`` (or ``consume(_:into:)``) and call ``finish()`` at the end of the stream.
/// It implements the WHATWG HTML Standard, section 9.2.5 "Parsing an event stream" and
/// 9.2.6 "Interpreting an event stream":
///
/// - the body is UTF-8; one leading byte order mark (EF BB BF) is stripped, once;
///   malformed UTF-8 becomes U+FFFD REPLACEMENT CHARACTER;
/// - lines end with CR LF, LF or CR; a CR at the end of one chunk followed by an LF at the
///   start of the next is a single line end;
/// - a line starting with `:` is a comment and is ignored;
/// - a line is split at its first `:` into a field name and a value; one leading space of the
///   value is removed; a line without `:` is a field name with an empty value;
/// - `event` sets the event type, `data` appends the value and a line feed to the data buffer,
///   `id` sets the last event ID unless the value contains U+0000 NULL (the ID persists across
///   events), `retry` sets the reconnection time when the value is only ASCII digits;
///   other field names are ignored;
/// - a blank line dispatches the event: if the data buffer is empty nothing is dispatched,
///   otherwise one trailing line feed is removed from the data and the event is emitted.
///
/// Splitting the input at any byte, including inside a multi-byte UTF-8 sequence or between a
/// CR and its LF, produces exactly the same events. Lines have no length limit. Bytes are scanned
/// with `memchr` and decoded to `String` only once per completed field.
public struct ServerSentEventParser: Sendable {
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Buffers larger than this many bytes are released instead of kept for reuse, so a single
    /// huge line does not pin its memory for the rest of the stream.
    private static let retainedBufferCapacity = 1 << 20

    /// Bytes of a line whose terminator has not arrived yet.
    private var partialLine: [UInt8] = []
    /// The data buffer: every `data:` value of the current block, each followed by a line feed.
    private var dataBuffer: [UInt8] = []
    /// The event type buffer of the current block (empty means none).
    private var eventType: String = ""
    /// The bytes of the most recently decoded `event:` value and its `String`, so a repeated
    /// event type (most Responses events are `response.output_text.delta`) is not decoded and
    /// allocated again for every event.
    private var cachedEventTypeBytes: [UInt8] = []
    private var cachedEventType: String = ""
    /// The reconnection time set inside the current block, in milliseconds.
    private var blockRetry: Int?
    /// True when the previous chunk ended with CR, so a leading LF in the next chunk is skipped.
    private var skipsLeadingLineFeed = false
    /// How many bytes of a leading byte order mark have been seen; `nil` once past the start.
    private var byteOrderMarkBytesSeen: Int? = 0

    /// The last event ID buffer (WHATWG 9.2.6); it persists across events and starts empty.
    public private(set) var lastEventID: String = ""

    /// The event stream's reconnection time in milliseconds, as last set by any valid `retry:`
    /// line (also in blocks that dispatched no event), or `nil` if none was seen.
    public private(set) var reconnectionTime: Int?

    /// Creates a parser at the start of a stream.
    ///
    /// - Parameters:
    ///   - lastEventID: The initial last event ID, for example the ID sent in a `Last-Event-ID`
    ///     request header when resuming a stream; empty for none.
    public init(lastEventID: String = "") {
        self.lastEventID = lastEventID
    }

    /// Whether the stream has started an event that no blank line has dispatched yet: a partial
    /// line, or a block with fields but no terminating blank line.
    ///
    /// Useful at the end of a stream to tell a truncated body from a complete one.
    public var hasIncompleteEvent: Bool {
        !partialLine.isEmpty || !dataBuffer.isEmpty || !eventType.isEmpty || blockRetry != nil
    }

    /// Whether the stream holds data of an event that no blank line has dispatched yet: `data:`
    /// lines of an unterminated block, or an unterminated line that is not a comment. At the end
    /// of a stream, such bytes mean the body was cut off in the middle of an event.
    public var hasPendingData: Bool {
        !dataBuffer.isEmpty || (!partialLine.isEmpty && partialLine[0] != Self.colon)
    }

    /// How many bytes the parser holds for the event being read: its `data:` values so far and
    /// the unterminated line. This is the memory a single event takes before it is dispatched.
    public var pendingByteCount: Int { dataBuffer.count + partialLine.count }

    /// The event being read, as far as it has arrived: its `data:` values (each followed by a
    /// line feed) and then the unterminated line, at most `maxBytes` of them.
    ///
    /// - Parameter maxBytes: The most bytes to return.
    /// - Returns: The first bytes of the pending event.
    public func pendingBytes(upTo maxBytes: Int) -> [UInt8] {
        var result = Array(dataBuffer.prefix(maxBytes))
        result.append(contentsOf: partialLine.prefix(max(0, maxBytes - result.count)))
        return result
    }

    /// The event that the pending lines would dispatch if a blank line followed them, or `nil`
    /// when they hold no data: what a server that ends its body without the final blank line
    /// meant to send (`data: [DONE]\n` and the end of the body, as Anthropic's OpenAI-compatible
    /// endpoint ends its streams). WHATWG 9.2.6 discards it; a client may look at it to tell such
    /// an ending from a body cut off in the middle of an event.
    public var pendingEvent: ServerSentEvent? {
        guard hasPendingData else { return nil }
        var copy = self
        var events: [ServerSentEvent] = []
        copy.consume([0x0A, 0x0A], into: &events)
        return events.first
    }

    /// Feeds the next chunk of the body and returns the events it completed.
    ///
    /// - Parameters:
    ///   - bytes: The next bytes of the body, in order; any length, including zero.
    /// - Returns: The events dispatched by blank lines inside `bytes`, in order.
    public mutating func consume(_ bytes: some Collection<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        consume(bytes, into: &events)
        return events
    }

    /// Feeds the next chunk of the body and appends the events it completed to `events`.
    ///
    /// Reusing one array (cleared with `removeAll(keepingCapacity: true)`) avoids an array
    /// allocation per chunk.
    ///
    /// - Parameters:
    ///   - bytes: The next bytes of the body, in order; any length, including zero.
    ///   - events: The array the dispatched events are appended to, in order.
    public mutating func consume(
        _ bytes: some Collection<UInt8>,
        into events: inout [ServerSentEvent]
    ) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            consumeBuffer(buffer, into: &events)
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { consumeBuffer($0, into: &events) }
        }
    }

    /// Ends the stream and resets the parser for a new stream (keeping ``lastEventID`` and
    /// ``reconnectionTime``).
    ///
    /// WHATWG 9.2.6: "Once the end of the file is reached, any pending data must be discarded.
    /// (If the file ends in the middle of an event, before the final empty line, the incomplete
    /// event is not dispatched.)" An unterminated last line and an undispatched block are
    /// therefore dropped, and the result is always empty; check ``hasIncompleteEvent`` first to
    /// detect a truncated stream.
    ///
    /// - Returns: The events dispatched at the end of the stream: always none under the standard.
    public mutating func finish() -> [ServerSentEvent] {
        partialLine = []
        dataBuffer = []
        eventType = ""
        blockRetry = nil
        skipsLeadingLineFeed = false
        byteOrderMarkBytesSeen = 0
        return []
    }

    // MARK: - Byte scanning

    private mutating func consumeBuffer(
        _ buffer: UnsafeBufferPointer<UInt8>,
        into events: inout [ServerSentEvent]
    ) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        var start = 0
        if let seen = byteOrderMarkBytesSeen {
            var matched = seen
            while start < buffer.count, matched < 3 {
                guard base[start] == Self.byteOrderMark[matched] else { break }
                matched += 1
                start += 1
            }
            if matched == 3 {
                byteOrderMarkBytesSeen = nil
            } else if start == buffer.count {
                byteOrderMarkBytesSeen = matched
                return
            } else {
                // Not a byte order mark: the bytes held back from earlier chunks are ordinary
                // input, and so is this whole chunk.
                byteOrderMarkBytesSeen = nil
                start = 0
                if seen > 0 {
                    Self.byteOrderMark.withUnsafeBufferPointer { held in
                        scanLines(UnsafeBufferPointer(rebasing: held[0..<seen]), into: &events)
                    }
                }
            }
        }
        if start < buffer.count {
            scanLines(UnsafeBufferPointer(rebasing: buffer[start...]), into: &events)
        }
    }

    /// Splits `buffer` into lines (CR LF, LF or CR) and interprets each complete one.
    private mutating func scanLines(
        _ buffer: UnsafeBufferPointer<UInt8>,
        into events: inout [ServerSentEvent]
    ) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        var position = 0
        if skipsLeadingLineFeed {
            skipsLeadingLineFeed = false
            if count > 0, base[0] == Self.lineFeed { position = 1 }
        }
        // Next LF and next CR at or after `position`; `count` means none. Each is rescanned only
        // once `position` passes it, so mixed or CR-only input is still scanned in linear time.
        var nextLineFeed = -1
        var nextCarriageReturn = -1
        while position < count {
            if nextLineFeed < position {
                nextLineFeed = Self.find(Self.lineFeed, in: base, from: position, to: count)
            }
            if nextCarriageReturn < position {
                nextCarriageReturn = Self.find(Self.carriageReturn, in: base, from: position, to: count)
            }
            let end = min(nextLineFeed, nextCarriageReturn)
            if end == count {
                partialLine.append(contentsOf: UnsafeBufferPointer(start: base + position, count: count - position))
                return
            }
            if partialLine.isEmpty {
                interpretLine(UnsafeBufferPointer(start: base + position, count: end - position), into: &events)
            } else {
                var line = partialLine
                partialLine = []
                line.append(contentsOf: UnsafeBufferPointer(start: base + position, count: end - position))
                line.withUnsafeBufferPointer { interpretLine($0, into: &events) }
                if line.capacity <= Self.retainedBufferCapacity {
                    line.removeAll(keepingCapacity: true)
                    partialLine = line
                }
            }
            position = end + 1
            if base[end] == Self.carriageReturn {
                if position < count {
                    if base[position] == Self.lineFeed { position += 1 }
                } else {
                    skipsLeadingLineFeed = true
                }
            }
        }
    }

    /// The index of the first `byte` in `base[from..<to]`, or `to` if there is none.
    @inline(__always)
    private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    // MARK: - Line interpretation (WHATWG 9.2.6)

    private mutating func interpretLine(
        _ line: UnsafeBufferPointer<UInt8>,
        into events: inout [ServerSentEvent]
    ) {
        guard let base = line.baseAddress, line.count > 0 else {
            dispatch(into: &events)
            return
        }
        let count = line.count
        if base[0] == Self.colon { return }  // comment
        let nameLength = Self.find(Self.colon, in: base, from: 0, to: count)
        var valueStart = min(nameLength + 1, count)
        if valueStart < count, base[valueStart] == Self.space { valueStart += 1 }
        let value = UnsafeBufferPointer(start: base + valueStart, count: count - valueStart)
        switch nameLength {
        case 4 where base[0] == 0x64 && base[1] == 0x61 && base[2] == 0x74 && base[3] == 0x61:  // data
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lineFeed)
        case 5 where base[0] == 0x65 && base[1] == 0x76 && base[2] == 0x65 && base[3] == 0x6E && base[4] == 0x74:
            // event
            eventType = decodeEventType(value)
        case 2 where base[0] == 0x69 && base[1] == 0x64:  // id
            if !value.contains(0) {
                lastEventID = String(decoding: value, as: UTF8.self)
            }
        case 5 where base[0] == 0x72 && base[1] == 0x65 && base[2] == 0x74 && base[3] == 0x72 && base[4] == 0x79:
            // retry
            if let milliseconds = Self.parseDigits(value) {
                reconnectionTime = milliseconds
                blockRetry = milliseconds
            }
        default:
            break  // unknown field: ignored
        }
    }

    /// Decodes an `event:` value, reusing the previous `String` when the bytes are the same.
    private mutating func decodeEventType(_ value: UnsafeBufferPointer<UInt8>) -> String {
        let isCached = cachedEventTypeBytes.withUnsafeBufferPointer { cached in
            cached.count == value.count
                && (value.isEmpty || memcmp(cached.baseAddress!, value.baseAddress!, value.count) == 0)
        }
        if !isCached {
            cachedEventTypeBytes.removeAll(keepingCapacity: true)
            cachedEventTypeBytes.append(contentsOf: value)
            cachedEventType = String(decoding: value, as: UTF8.self)
        }
        return cachedEventType
    }

    /// Parses a non-empty run of ASCII digits as a base-ten integer; `nil` for anything else,
    /// including a value too large for `Int`.
    private static func parseDigits(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }

    /// Handles a blank line: dispatches the pending event, if it has data, and resets the block.
    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        let retry = blockRetry
        blockRetry = nil
        guard !dataBuffer.isEmpty else {
            eventType = ""
            return
        }
        let data = dataBuffer.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast()), as: UTF8.self)
        }
        if dataBuffer.capacity <= Self.retainedBufferCapacity {
            dataBuffer.removeAll(keepingCapacity: true)
        } else {
            dataBuffer = []
        }
        events.append(
            ServerSentEvent(
                event: eventType.isEmpty ? nil : eventType,
                data: data,
                id: lastEventID.isEmpty ? nil : lastEventID,
                retry: retry
            )
        )
        eventType = ""
    }
}
