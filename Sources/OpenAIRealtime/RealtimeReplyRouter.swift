import OpenAI
import OpenAIWebSocket

/// The server events a ``RealtimeSession`` helper can wait for, and the one that fails them.
enum RealtimeReplyKind: Hashable, Sendable {
    case sessionUpdated
    case inputAudioBufferCommitted
    case inputAudioBufferCleared
    case responseCreated
    case responseDone
    case conversationItemAdded
    case error

    /// The reply kind of a server event, or `nil` for events no helper waits for.
    ///
    /// - Parameters:
    ///   - event: A decoded server event.
    init?(_ event: RealtimeServerEvent) {
        switch event {
        case .sessionUpdated: self = .sessionUpdated
        case .inputAudioBufferCommitted: self = .inputAudioBufferCommitted
        case .inputAudioBufferCleared: self = .inputAudioBufferCleared
        case .responseCreated: self = .responseCreated
        case .responseDone: self = .responseDone
        // GA servers answer conversation.item.create with conversation.item.added (then .done);
        // the beta protocol answered with conversation.item.created.
        case .conversationItemAdded, .conversationItemCreated: self = .conversationItemAdded
        case .error: self = .error
        default: return nil
        }
    }
}

/// Matches server events to the helpers waiting for a reply: a pure state machine, no I/O.
///
/// A waiter is registered with the `event_id` of the client event it sent and the reply kinds that
/// complete it. A server `error` event whose `error.event_id` names a waiter's client event fails
/// that waiter; an `error` without `event_id` fails every waiter (it cannot be attributed); an
/// `error` naming an event nobody waits for (for example an `input_audio_buffer.append`) fails
/// none. Any other event completes the oldest waiter expecting its kind (and, for a waiter that
/// names a response, carrying that response's `id`).
struct RealtimeReplyRouter<Waiter> {
    /// One helper waiting for a reply.
    struct Pending {
        var token: Int
        var clientEventID: String
        var replyKinds: Set<RealtimeReplyKind>
        var responseID: String?
        var waiter: Waiter

        func accepts(_ kind: RealtimeReplyKind, _ event: RealtimeServerEvent) -> Bool {
            guard replyKinds.contains(kind) else { return false }
            guard let responseID else { return true }
            switch event {
            case .responseDone(let done): return done.response.id == responseID
            case .responseCreated(let created): return created.response.id == responseID
            default: return true
            }
        }
    }

    /// What routing an event decided.
    enum Resolution {
        /// The event is the waiter's reply.
        case reply(Waiter, RealtimeServerEvent)
        /// The event is an error for the waiter's client event.
        case failure(Waiter, RealtimeServerEventError)
    }

    private(set) var pending: [Pending] = []

    /// Adds a waiter.
    ///
    /// - Parameters:
    ///   - token: A unique number to remove the waiter by.
    ///   - clientEventID: The `event_id` sent with the client event.
    ///   - replyKinds: The server events that complete it.
    ///   - responseID: Only `response.created` and `response.done` events of this response
    ///     complete it (`nil`: any).
    ///   - waiter: What to resume.
    mutating func register(
        token: Int, clientEventID: String, replyKinds: Set<RealtimeReplyKind>,
        responseID: String? = nil, waiter: Waiter
    ) {
        pending.append(
            Pending(
                token: token, clientEventID: clientEventID, replyKinds: replyKinds,
                responseID: responseID, waiter: waiter))
    }

    /// Removes a waiter (after a timeout, cancellation or a failed send).
    ///
    /// - Parameters:
    ///   - token: The waiter's token.
    /// - Returns: The waiter, or `nil` when it was already resolved.
    mutating func remove(token: Int) -> Waiter? {
        guard let index = pending.firstIndex(where: { $0.token == token }) else { return nil }
        return pending.remove(at: index).waiter
    }

    /// Removes and returns every waiter (when the connection ends).
    mutating func removeAll() -> [Waiter] {
        defer { pending = [] }
        return pending.map(\.waiter)
    }

    /// Routes one server event.
    ///
    /// - Parameters:
    ///   - event: The decoded event.
    /// - Returns: The waiters it resolves, removed from ``pending``, oldest first.
    mutating func route(_ event: RealtimeServerEvent) -> [Resolution] {
        guard let kind = RealtimeReplyKind(event) else { return [] }
        if case .error(let error) = event {
            if let eventID = error.error.eventID {
                guard let index = pending.firstIndex(where: { $0.clientEventID == eventID }) else {
                    return []
                }
                return [.failure(pending.remove(at: index).waiter, error)]
            }
            return removeAll().map { .failure($0, error) }
        }
        guard let index = pending.firstIndex(where: { $0.accepts(kind, event) }) else {
            return []
        }
        return [.reply(pending.remove(at: index).waiter, event)]
    }
}
