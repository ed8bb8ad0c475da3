#if os(Linux) && canImport(OpenAIRuntimeLibcurl)
    import OpenAIRuntimeLibcurl
    import Foundation

    /// The libcurl handles of one ``URLSessionTransport``'s direct transfers, kept between requests
    /// so that their connections are used again (keep-alive), with what they share: the DNS cache,
    /// TLS sessions and, when the transport keeps cookies, its cookie store.
    ///
    /// A handle comes back to the pool only after a transfer that ended normally; one that was
    /// cancelled, hit a limit or failed is cleaned up, with its connections. The pool keeps at most
    /// ``maxIdle`` handles (each with at most two connections); a transfer in flight holds the pool,
    /// so the share outlives every handle that uses it.
    /// `@unchecked Sendable`: `share` is a libcurl share handle, set once, with the lock functions
    /// (CURLSHOPT_LOCKFUNC) the C shim gives it.
    final class CurlPool: @unchecked Sendable {
        /// A handle and the socket guard its callbacks report to.
        struct Lease {
            let handle: UnsafeMutableRawPointer
            let sockets: OpaquePointer
        }

        /// The most idle handles kept.
        static let maxIdle = 16
        /// The most connections one handle keeps open between transfers (CURLOPT_MAXCONNECTS).
        static let connectionsPerHandle = 2

        private struct State {
            var idle: [Lease] = []
            /// How many transfers have taken a handle.
            var checkouts = 0
        }

        private let state = Locked(State())
        private let share: OpaquePointer?

        /// How many transfers have taken a handle from this pool (for the tests).
        var transferCount: Int { state.withLock { $0.checkouts } }

        /// - Parameter cookies: Whether the handles keep and send cookies, in a store of this
        ///   pool's own (in memory).
        init(cookies: Bool) {
            share = clibcurl_share_create(cookies ? 1 : 0)
        }

        deinit {
            for lease in state.withLock({ $0.idle }) { Self.cleanup(lease) }
            clibcurl_share_destroy(share)
        }

        /// A kept handle (its connections open), or a new one, with the pool's options set; `nil`
        /// when libcurl cannot make one.
        ///
        /// - Parameter fresh: Whether the handle must have no connection open: for a body libcurl
        ///   cannot read again, which it would have to when a kept connection turns out closed.
        func checkout(fresh: Bool = false) -> Lease? {
            let kept: Lease? = state.withLock { state in
                state.checkouts += 1
                return fresh ? nil : state.idle.popLast()
            }
            if let kept { return prepared(kept) }
            guard let handle = clibcurl_easy_init() else { return nil }
            guard let sockets = clibcurl_socket_guard_create() else {
                clibcurl_easy_cleanup(handle)
                return nil
            }
            return prepared(Lease(handle: handle, sockets: sockets))
        }

        /// Gives the handle back: kept for the next transfer, its options reset (no pointer into
        /// the last transfer stays), when `reusable` and the pool has room; else cleaned up (its
        /// connections closed).
        func checkin(_ lease: Lease, reusable: Bool) {
            if reusable { clibcurl_easy_reset(lease.handle) }
            let kept =
                reusable
                && state.withLock { state in
                    guard state.idle.count < Self.maxIdle else { return false }
                    state.idle.append(lease)
                    return true
                }
            if !kept { Self.cleanup(lease) }
        }

        /// The options every transfer of the pool starts from: the socket guard, the share, the
        /// connection cache's size.
        private func prepared(_ lease: Lease) -> Lease? {
            guard clibcurl_setopt_socket_guard(lease.handle, lease.sockets) == 0,
                share == nil || clibcurl_setopt_share(lease.handle, share) == 0
            else {
                Self.cleanup(lease)
                return nil
            }
            clibcurl_setopt_long(lease.handle, Int32(CLibcurlOptionMaxConnects), Self.connectionsPerHandle)
            return lease
        }

        private static func cleanup(_ lease: Lease) {
            // Closes the handle's sockets through the guard, which must outlive it.
            clibcurl_easy_cleanup(lease.handle)
            clibcurl_socket_guard_destroy(lease.sockets)
        }
    }

    /// Threads that run direct transfers (`curl_easy_perform` blocks its thread for the whole
    /// exchange): an idle thread takes the next transfer, a new one starts when none is idle, and
    /// a thread idle for ``idleLifetime`` ends. Starting a thread per request cost more than the
    /// rest of a small request's work on this path.
    final class CurlWorkers: Sendable {
        static let shared = CurlWorkers()

        /// How long an idle thread waits for work before it ends, in seconds.
        static let idleLifetime: TimeInterval = 30

        /// `@unchecked Sendable`: `job` is read and written only with the workers' lock held.
        private final class Worker: @unchecked Sendable {
            let wake = DispatchSemaphore(value: 0)
            /// Set by ``CurlWorkers/run(_:)`` before `wake` is signalled.
            var job: (@Sendable () -> Void)?
        }

        /// The idle workers; its lock also guards each worker's `job`.
        private let idle = Locked<[Worker]>([])

        /// Runs `job` on an idle worker thread, or a new one.
        func run(_ job: @escaping @Sendable () -> Void) {
            let woken: Worker? = idle.withLock { idle in
                guard let worker = idle.popLast() else { return nil }
                worker.job = job
                return worker
            }
            if let woken {
                woken.wake.signal()
                return
            }
            let worker = Worker()
            worker.job = job
            let thread = Thread { [self] in loop(worker) }
            thread.name = "OpenAI.CurlTransfer"
            thread.start()
        }

        private func loop(_ worker: Worker) {
            while true {
                let job = idle.withLock { _ in
                    defer { worker.job = nil }
                    return worker.job
                }
                job?()
                idle.withLock { $0.append(worker) }
                if worker.wake.wait(timeout: .now() + Self.idleLifetime) == .timedOut {
                    let ended: Bool = idle.withLock { idle in
                        guard let index = idle.firstIndex(where: { $0 === worker }) else { return false }
                        idle.remove(at: index)
                        return true
                    }
                    if ended { return }
                    // Taken just as the wait ended: its job comes with the signal.
                    worker.wake.wait()
                }
            }
        }
    }
#endif
