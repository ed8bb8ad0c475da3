import Foundation

/// Keeps the head of the last reply of a call, and for ``OpenAIClient/withUndecodedResponse(isolation:_:)``
/// the first 2xx JSON reply, undecoded: the recorder of the client those calls hand to their closure.
/// Once the call has returned it is closed: a recording client kept past its call records nothing
/// and decodes its replies as any client does.
final class RawResponseRecorder: Sendable {
    /// Whether the first JSON reply is kept undecoded and the call stopped there.
    let defersDecoding: Bool
    private let state = Locked<(last: RawResponse?, deferred: UndecodedReply?, isClosed: Bool)>((nil, nil, false))

    init(defersDecoding: Bool = false) {
        self.defersDecoding = defersDecoding
    }

    func record(_ response: RawResponse) {
        state.withLock { state in
            if !state.isClosed { state.last = response }
        }
    }

    /// Keeps `reply` (the first one only, and only before ``close()``); returns whether it was kept.
    func keep(_ reply: UndecodedReply) -> Bool {
        state.withLock { state in
            guard state.deferred == nil, !state.isClosed else { return false }
            state.deferred = reply
            return true
        }
    }

    /// Stops recording: the call that made this recorder has returned.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    var response: RawResponse? { state.withLock { $0.last } }

    var undecoded: UndecodedReply? { state.withLock { $0.deferred } }
}

/// A 2xx JSON reply kept undecoded, with what decoding it needs.
struct UndecodedReply: Sendable {
    var response: HTTPResponse
    var head: RawResponse
    var decodingMode: DecodingMode
    var defaultedBodyMembers: Set<String>
}

/// Thrown by `send` once the reply is kept, to end the call without decoding.
struct DecodingDeferred: Error {}
