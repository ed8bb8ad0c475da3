import Foundation
import XCTest
import OpenAISDKTestSupport

/// Type-checks every snapshot fixture's `expected/` Swift as the module `OpenAI` against the
/// built `OpenAIRuntime` module (the target the generated code imports, as in the package), in
/// Swift 6 language mode: the expected outputs must compile with zero errors, and with zero warnings
/// on the newest compiler (``warningsFail``).
final class SnapshotCompileTests: XCTestCase {
    /// Whether a warning fails a fixture: on the newest compiler, on Linux. Older compilers (Swift
    /// 6.0–6.2, in `platforms.yml`) warn differently about the same code, and Apple's SDKs add
    /// warnings of their own (deprecations and availability in their Foundation overlay, which
    /// Linux's swift-corelibs-foundation does not have); there errors alone decide, and the
    /// warnings are printed, for a reader to fix or list (CONTRIBUTING, GitHub workflows: `platforms.yml`).
    #if compiler(>=6.3) && !canImport(Darwin)
        static let warningsFail = true
    #else
        static let warningsFail = false
    #endif

    /// The runtime target the generated code is compiled against.
    static let runtimeModule = "OpenAIRuntime"

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
        let runtime = try Self.runtimeModuleFlags()
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
                { Self.typecheck(fixture: job.0, files: job.1, flags: runtime, swiftc: swiftc) }
            })
        let slowest = outcomes.max { $0.seconds < $1.seconds }
        for outcome in outcomes.sorted(by: { $0.fixture < $1.fixture }) {
            let warnings = outcome.output.split(separator: "\n").filter { $0.contains(": warning:") }
            if outcome.status != 0 || (Self.warningsFail && !warnings.isEmpty) {
                XCTFail(
                    """
                    \(outcome.fixture): swiftc exited \(outcome.status) with \(warnings.count) warning(s):
                    \(outcome.output)
                    """)
            } else if !warnings.isEmpty {
                print(
                    "SnapshotCompileTests: \(outcome.fixture): \(warnings.count) warning(s), not failing on this "
                        + "compiler or SDK (warningsFail):\n" + warnings.joined(separator: "\n"))
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

    /// The `swiftc` flags that make the built ``runtimeModule`` importable: its build folder's
    /// `Modules/` (found beside the running test bundle, as `swift test` built it, whatever the
    /// scratch path) and the module map of the C target it imports on Linux (`OpenAIRuntimeLibcurl`).
    ///
    /// - Throws: A test failure (not a skip) when the module is not built beside the test bundle.
    static func runtimeModuleFlags() throws -> [String] {
        // Linux runs the bundle itself; macOS runs `xctest <bundle>.xctest`.
        let bundle = CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments.first ?? ""
        let runner = URL(fileURLWithPath: bundle).standardizedFileURL
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("\(runtimeModule).swiftmodule").path)
            {
                var flags = ["-package-name", packageName(binDirectory: directory), "-I", modules.path]
                let curl = directory.appendingPathComponent("OpenAIRuntimeLibcurl.build/module.modulemap")
                if FileManager.default.fileExists(atPath: curl.path) {
                    flags += ["-Xcc", "-fmodule-map-file=\(curl.path)"]
                }
                return flags
            }
            directory.deleteLastPathComponent()
        }
        XCTFail("\(runtimeModule).swiftmodule is not built beside \(runner.path) (run swift build --build-tests)")
        throw XCTSkip("no \(runtimeModule) module")
    }

    /// The `-package-name` SwiftPM gave the package's modules (from the package's identity, its
    /// folder's name: `package` declarations are visible only under the same name): read from the
    /// build's manifest (`<scratch>/<configuration>.yaml`), else derived from the folder's name as
    /// SwiftPM does.
    static func packageName(binDirectory: URL) -> String {
        let configuration = binDirectory.lastPathComponent
        var directory = binDirectory.deletingLastPathComponent()
        for _ in 0..<3 {
            let manifest = directory.appendingPathComponent("\(configuration).yaml")
            if let text = try? String(contentsOf: manifest, encoding: .utf8),
                let range = text.range(of: #""-package-name",""#)
            {
                let rest = text[range.upperBound...]
                if let end = rest.firstIndex(of: "\"") { return String(rest[..<end]) }
            }
            directory.deleteLastPathComponent()
        }
        let identity = SnapshotFixtures.packageRoot.standardizedFileURL.lastPathComponent.lowercased()
        let name = String(identity.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// Runs `swiftc -typecheck -wmo -swift-version 6` on `files` as the module `OpenAI`, with
    /// `flags` (where the runtime module is).
    static func typecheck(fixture: String, files: [String], flags: [String], swiftc: String) -> Outcome {
        let start = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        // `-wmo`: one frontend job for the whole module instead of one per file, each re-parsing
        // every file (about 4x less CPU for the same diagnostics).
        process.arguments =
            ["-typecheck", "-wmo", "-swift-version", "6", "-module-name", "OpenAI"] + flags + files
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
