import Foundation
import XCTest
import TestSupport

/// Type-checks every snapshot fixture's `expected/` Swift together with the hand-written runtime
/// (every `.swift` file under `Sources/OpenAI` except `Generated/`), as one module named `OpenAI`
/// in Swift 6 language mode: the expected outputs must compile with zero errors and zero warnings.
final class SnapshotCompileTests: XCTestCase {
    /// Folders under `Sources/OpenAI` that are not part of the hand-written runtime.
    static let excludedSourceFolders: Set<String> = ["Generated", "Helpers"]

    /// How many `swiftc` processes run at once (the machine has 2 cores).
    static let parallelism = 2

    /// The outcome of type-checking one fixture.
    struct Outcome: Sendable {
        var fixture: String
        var status: Int32
        var output: String
        var seconds: Double
    }

    func testEveryFixtureExpectedOutputTypeChecksWithoutWarnings() throws {
        let swiftc = try Self.findSwiftc()
        let runtime = Self.runtimeSources()
        XCTAssertFalse(runtime.isEmpty, "no hand-written runtime found under Sources/OpenAI")
        let fixtures = try SnapshotFixtures.names()
        XCTAssertGreaterThanOrEqual(fixtures.count, 20)
        var jobs: [(String, [String])] = []
        for fixture in fixtures {
            let directory = SnapshotFixtures.expectedDirectory(fixture)
            let files = SnapshotFixtures.swiftFiles(under: directory).map {
                directory.appendingPathComponent($0).path
            }
            if files.isEmpty {
                XCTFail("\(fixture): expected/ holds no Swift files (run Scripts/update-snapshots.sh)")
                continue
            }
            jobs.append((fixture, files))
        }
        let start = Date()
        let outcomes = Self.runInParallel(
            jobs.map { job -> @Sendable () -> Outcome in
                { Self.typecheck(fixture: job.0, files: runtime + job.1, swiftc: swiftc) }
            })
        let slowest = outcomes.max { $0.seconds < $1.seconds }
        for outcome in outcomes.sorted(by: { $0.fixture < $1.fixture }) {
            let warnings = outcome.output.split(separator: "\n").filter { $0.contains(": warning:") }
            if outcome.status != 0 || !warnings.isEmpty {
                XCTFail(
                    """
                    \(outcome.fixture): swiftc exited \(outcome.status) with \(warnings.count) warning(s):
                    \(outcome.output)
                    """)
            }
        }
        print(
            "SnapshotCompileTests: \(outcomes.count) fixtures type-checked in "
                + String(format: "%.1f", Date().timeIntervalSince(start)) + " s; slowest "
                + "\(slowest?.fixture ?? "-") " + String(format: "%.1f", slowest?.seconds ?? 0) + " s")
    }

    // MARK: Helpers

    /// `swiftc` of the running toolchain: `$SWIFTC`, next to the test runner, `/opt/swift/usr/bin`,
    /// or the first on `PATH`.
    static func findSwiftc() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["SWIFTC"] { candidates.append(explicit) }
        if let runner = CommandLine.arguments.first {
            candidates.append(
                URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("swiftc")
                    .path)
        }
        candidates.append("/opt/swift/usr/bin/swiftc")
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append("\(directory)/swiftc")
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw Unavailable.skip("swiftc not found (looked at \(candidates.joined(separator: ", ")))")
        }
        return found
    }

    /// Every hand-written `.swift` file under `Sources/OpenAI`, sorted.
    static func runtimeSources() -> [String] {
        let root = SnapshotFixtures.packageRoot.appendingPathComponent(
            "Sources/OpenAI", isDirectory: true)
        return SnapshotFixtures.swiftFiles(under: root)
            .filter { path in
                !excludedSourceFolders.contains(String(path.split(separator: "/").first ?? ""))
            }
            .map { root.appendingPathComponent($0).path }
    }

    /// Runs `swiftc -typecheck -wmo -swift-version 6` on `files` as the module `OpenAI`.
    static func typecheck(fixture: String, files: [String], swiftc: String) -> Outcome {
        let start = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        // `-wmo`: one frontend job for the whole module instead of one per file, each re-parsing
        // every file (about 4x less CPU for the same diagnostics).
        process.arguments =
            ["-typecheck", "-wmo", "-swift-version", "6", "-module-name", "OpenAI", "-package-name", "swift_openai"]
            + files
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return Outcome(
                fixture: fixture, status: -1, output: "could not run \(swiftc): \(error)", seconds: 0)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            fixture: fixture, status: process.terminationStatus,
            output: String(decoding: data, as: UTF8.self),
            seconds: Date().timeIntervalSince(start))
    }

    /// Runs `jobs` on ``parallelism`` threads and returns their outcomes in any order.
    static func runInParallel(_ jobs: [@Sendable () -> Outcome]) -> [Outcome] {
        let queue = JobQueue(jobs)
        let group = DispatchGroup()
        for _ in 0..<min(parallelism, jobs.count) {
            DispatchQueue.global().async(group: group) {
                while let job = queue.next() { queue.finish(job()) }
            }
        }
        group.wait()
        return queue.outcomes
    }

    /// Jobs waiting to run and their outcomes, shared by the worker threads.
    /// `@unchecked Sendable`: every access to `pending` and `finished` holds `lock`.
    final class JobQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [@Sendable () -> Outcome]
        private var finished: [Outcome] = []

        init(_ jobs: [@Sendable () -> Outcome]) { pending = jobs.reversed() }

        func next() -> (@Sendable () -> Outcome)? {
            lock.lock()
            defer { lock.unlock() }
            return pending.popLast()
        }

        func finish(_ outcome: Outcome) {
            lock.lock()
            defer { lock.unlock() }
            finished.append(outcome)
        }

        var outcomes: [Outcome] {
            lock.lock()
            defer { lock.unlock() }
            return finished
        }
    }
}
