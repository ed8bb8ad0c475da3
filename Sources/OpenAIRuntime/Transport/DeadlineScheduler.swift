import Dispatch
import Foundation

/// Something with a deadline that ``DeadlineScheduler`` calls back when it passes.
protocol DeadlineOwner: AnyObject, Sendable {
    /// The scheduled deadline has passed: check the limits, and schedule the next deadline if one
    /// is still in force. Called on a global dispatch queue, with no lock of the scheduler held.
    func deadlineReached()
}

/// One dispatch timer for the deadlines of every request in flight, instead of a timer each:
/// creating, scheduling and cancelling a `DispatchSourceTimer` per attempt cost more than the
/// rest of the transport's own work.
///
/// The timer is set to the earliest deadline scheduled; an owner that leaves (``cancel(_:)``)
/// does not move it, so it may fire for nothing, and then it is set to the earliest deadline
/// still scheduled. Deadlines are `DispatchTime` uptime nanoseconds, and the timer's leeway is
/// 1 ms, as a timer of each owner's own would have.
///
/// `@unchecked Sendable`: `timer` is a dispatch source, which may be used from any thread (and
/// is set only with `state`'s lock held).
final class DeadlineScheduler: @unchecked Sendable {
    /// The scheduler the transports share.
    static let shared = DeadlineScheduler()

    private struct State {
        /// The owners with a deadline, by identity.
        var owners: [ObjectIdentifier: (deadline: UInt64, owner: any DeadlineOwner)] = [:]
        /// The deadline the timer is set to; `UInt64.max` when it is not set.
        var armed = UInt64.max
    }

    private let state = Locked(State())
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak self] in self?.fire() }
        // Resumed without a deadline, it waits until `schedule` sets one.
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Calls `owner.deadlineReached()` once `deadline` has passed, in place of any deadline the
    /// owner had.
    ///
    /// - Parameters:
    ///   - owner: The owner; held until its deadline passes or it is cancelled.
    ///   - deadline: The deadline, in `DispatchTime` uptime nanoseconds.
    func schedule(_ owner: any DeadlineOwner, at deadline: UInt64) {
        state.withLock { state in
            state.owners[ObjectIdentifier(owner)] = (deadline, owner)
            if deadline < state.armed { arm(deadline, in: &state) }
        }
    }

    /// Forgets the deadline of `owner`, if it has one: it is not called back.
    func cancel(_ owner: any DeadlineOwner) {
        state.withLock { $0.owners[ObjectIdentifier(owner)] = nil }
    }

    /// Sets the timer to `deadline`; call with `state`'s lock held.
    private func arm(_ deadline: UInt64, in state: inout State) {
        state.armed = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
    }

    /// Runs when the timer fires: calls back the owners whose deadline has passed, and sets the
    /// timer to the earliest deadline left.
    private func fire() {
        let reached = state.withLock { state in
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [ObjectIdentifier] = []
            var next = UInt64.max
            for (identifier, entry) in state.owners {
                if entry.deadline <= now {
                    due.append(identifier)
                } else {
                    next = min(next, entry.deadline)
                }
            }
            state.armed = UInt64.max
            if next != UInt64.max { arm(next, in: &state) }
            return due.compactMap { state.owners.removeValue(forKey: $0)?.owner }
        }
        for owner in reached { owner.deadlineReached() }
    }
}
