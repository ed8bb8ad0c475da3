import Foundation

/// The time limits and the error-body bound of one HTTP attempt: the state the URLSession and
/// libcurl transfers share, with no clock, lock or I/O of its own.
///
/// The transfer's callbacks drive it, each with the time it happened (`DispatchTime` uptime
/// nanoseconds), and do what it returns: schedule a deadline with ``DeadlineScheduler``, end the
/// transfer, keep only part of a chunk. The owner holds it under its lock.
///
/// The limits are those of ``HTTPTimeouts``:
/// - the request limit runs from ``start(at:)`` until the reply has arrived whole, or until
///   ``streamedHeadArrived()`` for a streamed reply;
/// - the connect limit runs until the first ``activity(at:connected:)`` that says the connection
///   is up;
/// - the idle limit runs from the last activity, except while the reader of a streamed body is
///   behind (``readerLags(_:at:)``): no byte can arrive then, so that time is not idle time.
struct TransferState {
    /// Which limit of ``HTTPTimeouts`` passed.
    enum Expiry: Equatable {
        case request, idle, connect
    }

    /// What to do when the scheduled deadline has passed.
    enum DeadlineOutcome: Equatable {
        /// A limit passed: end the transfer.
        case expired(Expiry)
        /// No limit passed yet: schedule the next deadline.
        case wait(until: UInt64)
        /// No limit is in force (or the transfer is over): schedule nothing.
        case none
    }

    /// Which of the limits the transfer keeps itself (libcurl keeps some on its own).
    struct Limits: OptionSet {
        let rawValue: Int
        static let request = Limits(rawValue: 1)
        static let idle = Limits(rawValue: 2)
        static let connect = Limits(rawValue: 4)
        static let all: Limits = [.request, .idle, .connect]
    }

    private let requestLimit: UInt64?
    private let idleLimit: UInt64?
    private let connectLimit: UInt64?
    private let errorBodyLimit: Int

    /// Whether the attempt runs: between ``start(at:)`` and ``stop()``.
    private(set) var running = false
    private var requestDeadline: UInt64?
    private var connectDeadline: UInt64?
    private var lastActivity: UInt64 = 0
    /// Whether a deadline this state returned is still scheduled (it has not been reached).
    private var scheduled = false
    /// Whether the reader of a streamed body is behind, so no byte can arrive.
    private(set) var readerLagging = false
    /// The limit that passed, once one has.
    private(set) var expiry: Expiry?
    /// The most body bytes kept: ``errorBodyLimit`` for a reply that is not 2xx.
    private var bodyLimit = Int.max
    private var bodyKept = 0
    /// Whether a body went beyond ``bodyLimit``: the rest is not read.
    private(set) var cutAtLimit = false

    /// - Parameters:
    ///   - timeouts: The attempt's limits, in seconds.
    ///   - limits: Those this transfer keeps; the others are not checked here.
    ///   - errorBodyLimit: The most bytes of a non-2xx body kept.
    init(timeouts: HTTPTimeouts, limits: Limits = .all, errorBodyLimit: Int) {
        requestLimit = limits.contains(.request) ? Self.nanoseconds(timeouts.request) : nil
        idleLimit = limits.contains(.idle) ? Self.nanoseconds(timeouts.idle) : nil
        connectLimit = limits.contains(.connect) ? Self.nanoseconds(timeouts.connect) : nil
        self.errorBodyLimit = errorBodyLimit
    }

    /// `seconds` in nanoseconds; `nil` (no limit) when it is not a positive number below 10⁹ s.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64? {
        guard seconds.isFinite, seconds > 0, seconds < 1e9 else { return nil }
        return UInt64(seconds * 1e9)
    }

    // MARK: Time limits

    /// Starts the limits.
    ///
    /// - Returns: The first deadline to schedule, if a limit is in force.
    mutating func start(at now: UInt64) -> UInt64? {
        running = true
        lastActivity = now
        requestDeadline = requestLimit.map { now &+ $0 }
        connectDeadline = connectLimit.map { now &+ $0 }
        return schedule(from: now)
    }

    /// Stops the limits: nothing is scheduled any more.
    ///
    /// - Returns: The limit that passed, if one did.
    mutating func stop() -> Expiry? {
        running = false
        scheduled = false
        return expiry
    }

    /// Bytes moved at `now`: the idle clock starts again, and the connect limit ends when
    /// `connected`.
    mutating func activity(at now: UInt64, connected: Bool = true) {
        lastActivity = now
        if connected { connectDeadline = nil }
    }

    /// A streamed reply's head has arrived: its body is bounded by the idle limit alone.
    mutating func streamedHeadArrived() {
        requestDeadline = nil
    }

    /// The reader of a streamed body fell behind (`true`) or caught up (`false`) at `now`.
    ///
    /// - Returns: When it caught up, the deadline to schedule (the idle clock starts again then),
    ///   unless one is still scheduled: that one is not later, and reaching it schedules the next.
    mutating func readerLags(_ lagging: Bool, at now: UInt64) -> UInt64? {
        readerLagging = lagging
        guard !lagging else { return nil }
        lastActivity = now
        return scheduled ? nil : schedule(from: now)
    }

    /// ``nextDeadline(from:)``, recorded as scheduled.
    private mutating func schedule(from now: UInt64) -> UInt64? {
        let deadline = nextDeadline(from: now)
        scheduled = deadline != nil
        return deadline
    }

    /// The earliest deadline in force, at least `now`; `nil` when none is, or the attempt is over
    /// or expired.
    func nextDeadline(from now: UInt64) -> UInt64? {
        guard running, expiry == nil else { return nil }
        var deadline = requestDeadline
        if let connectDeadline { deadline = min(deadline ?? .max, connectDeadline) }
        if !readerLagging, let idleLimit { deadline = min(deadline ?? .max, lastActivity &+ idleLimit) }
        return deadline.map { max($0, now) }
    }

    /// The scheduled deadline has passed at `now`: whether a limit has.
    mutating func deadlineReached(at now: UInt64) -> DeadlineOutcome {
        scheduled = false
        guard running, expiry == nil else { return .none }
        if let requestDeadline, now >= requestDeadline {
            expiry = .request
        } else if let connectDeadline, now >= connectDeadline {
            expiry = .connect
        } else if !readerLagging, let idleLimit, now >= lastActivity &+ idleLimit {
            expiry = .idle
        }
        if let expiry { return .expired(expiry) }
        return schedule(from: now).map { .wait(until: $0) } ?? .none
    }

    // MARK: Error body

    /// A reply head with `statusCode` arrived (again, after a `100 Continue`): a body that is not
    /// 2xx is kept up to the error-body limit.
    mutating func replyHead(statusCode: Int) {
        bodyLimit = (200..<300).contains(statusCode) ? .max : errorBodyLimit
        bodyKept = 0
        cutAtLimit = false
    }

    /// A chunk of `count` body bytes arrived.
    ///
    /// - Returns: How many of them to keep, from the start; fewer than `count` once the body
    ///   reached its limit (``cutAtLimit`` is then set, and the transfer stops reading).
    mutating func admit(_ count: Int) -> Int {
        guard !cutAtLimit else { return 0 }
        let kept = min(count, bodyLimit - bodyKept)
        bodyKept += kept
        if kept < count { cutAtLimit = true }
        return kept
    }
}
