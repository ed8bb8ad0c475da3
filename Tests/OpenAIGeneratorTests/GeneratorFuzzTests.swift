import Foundation
import OpenAISDKTestSupport
import XCTest

/// A bounded fuzz run of `openai-generator` (`generate` and `diff`) on mutants of the snapshot
/// specs and of the locked spec: truncation, deleted and duplicated lines, broken indentation,
/// tabs, wrong node kinds, non-UTF-8 bytes, deep nesting, alias bombs and `$ref` cycles. Every
/// run must end within its time limit with status 0, or 1 and an error naming file:line:column;
/// none may crash or hang.
///
/// `FUZZ_MUTANTS=N` (default 150) sets how many mutants; `FUZZ_REAL_SPEC_MUTANTS=N` (default 4)
/// how many of them mutate the 2.9 MB locked spec; `OPENAI_GENERATOR=PATH` runs another binary (a
/// release build, as `Scripts/check/fuzz-generator.sh` does). The figures are printed as one line.
final class GeneratorFuzzTests: XCTestCase {
    struct Outcome {
        var status: Int32
        var signaled: Bool
        var timedOut: Bool
        var output: String
        var seconds: Double
    }

    static let timeLimit: Double = 30

    func run(_ arguments: [String]) throws -> Outcome {
        // A process, not the in-process command: a crash or a hang must be observed, not suffered.
        let generator =
            try ProcessInfo.processInfo.environment["OPENAI_GENERATOR"].map(URL.init(fileURLWithPath:))
            ?? GeneratorCLITests.executable()
        let process = Process()
        process.executableURL = generator
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        let start = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > Self.timeLimit {
                timedOut = true
                process.terminate()
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
        try? FileManager.default.removeItem(at: output)
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal && !timedOut,
            timedOut: timedOut, output: text, seconds: Date().timeIntervalSince(start))
    }

    // MARK: Mutations

    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    }

    static func joined(_ lines: [ArraySlice<UInt8>]) -> [UInt8] {
        Array(lines.joined(separator: [0x0A]))
    }

    /// One mutant of `spec` and a name for it.
    static func mutate(_ spec: [UInt8], _ random: inout SeededRandom) -> (String, [UInt8]) {
        var lines = lines(spec)
        let line = random.below(lines.count)
        switch random.below(12) {
        case 0:
            return ("truncated", Array(spec.prefix(random.below(spec.count))))
        case 1:
            lines.remove(at: line)
            return ("deleted line", joined(lines))
        case 2:
            lines[line] = random.below(2) == 0 ? lines[line].dropFirst() : [0x20] + lines[line]
            return ("broken indentation", joined(lines))
        case 3:
            lines[line] = [0x09] + lines[line]
            return ("tab", joined(lines))
        case 4:
            lines.insert(lines[line], at: line)
            return ("duplicated line", joined(lines))
        case 5:
            let kinds = ["[]", "{}", "[1, {a: b}]", "~", "&x 1", "*undefined", "!!int x", "{$ref: '#/nowhere'}"]
            if let colon = lines[line].firstIndex(of: 0x3A) {
                lines[line] = lines[line][...colon] + Array(" \(kinds[random.below(kinds.count)])".utf8)[...]
            }
            return ("wrong node kind", joined(lines))
        case 6:
            var bytes = spec
            for _ in 0..<3 { bytes.insert([0xFF, 0xFE, 0xC3, 0x28][random.below(4)], at: random.below(bytes.count)) }
            return ("non-UTF-8", bytes)
        case 7:
            let depth = [150, 5_000, 100_000][random.below(3)]
            let nested =
                String(repeating: "{type: object, properties: {a: ", count: depth) + "{type: string}"
                + String(repeating: "}}", count: depth)
            return ("nesting \(depth) deep", spec + Array("\nx-deep: \(nested)\n".utf8))
        case 8:
            var bomb = "\nx-bomb:\n  l0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
            for level in 1..<10 {
                bomb +=
                    "  l\(level): &b\(level) [" + Array(repeating: "*b\(level - 1)", count: 10).joined(separator: ", ")
                    + "]\n"
            }
            return ("alias bomb", spec + Array(bomb.utf8))
        case 9:
            let text = String(decoding: spec, as: UTF8.self)
            guard let range = text.range(of: "  schemas:\n") else { return ("ref cycle (no schemas)", spec) }
            let cycle =
                "  schemas:\n    FuzzA: {$ref: '#/components/schemas/FuzzB'}\n    FuzzB: {allOf: [{$ref: '#/components/schemas/FuzzA'}]}\n"
            return ("ref cycle", Array(text.replacingCharacters(in: range, with: cycle).utf8))
        case 10:
            var bytes = spec
            for _ in 0..<8 {
                let index = random.below(bytes.count)
                bytes[index] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            }
            return ("flipped bits", bytes)
        default:
            let text = String(decoding: spec, as: UTF8.self)
            let replaced = text.replacingOccurrences(of: "type: object", with: "type: [object, 3, {x: y}]")
            return ("wrong types", Array(replaced.utf8))
        }
    }

    // MARK: The run

    func testMutatedSpecsNeverCrashHangOrFailWithoutALocation() throws {
        let environment = ProcessInfo.processInfo.environment
        let total = Int(environment["FUZZ_MUTANTS"] ?? "") ?? 150
        let realCount = Int(environment["FUZZ_REAL_SPEC_MUTANTS"] ?? "") ?? 4
        var random = SeededRandom(seed: UInt64(environment["FUZZ_SEED"] ?? "") ?? 0x0F0F_2026)
        let snapshots = try SnapshotFixtures.names().map { name -> (String, [UInt8]) in
            let url = SnapshotFixtures.root.appendingPathComponent(name).appendingPathComponent("spec.yaml")
            return (name, [UInt8](try Data(contentsOf: url)))
        }
        let realURL = SnapshotFixtures.packageRoot.appendingPathComponent("../shared/spec/openapi.yaml").standardized
        guard FileManager.default.fileExists(atPath: realURL.path) else {
            throw Unavailable.skip("the locked spec is not at \(realURL.path)")
        }
        let real = [UInt8](try Data(contentsOf: realURL))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var crashes: [String] = []
        var hangs: [String] = []
        var unlocated: [String] = []
        var accepted = 0
        var rejected = 0
        var slowest: (Double, String) = (0, "")
        let located = try Regex(#"\.yaml:[0-9]+:[0-9]+: error: .+ \(at #"#)
        for index in 0..<total {
            let isReal = index < realCount
            let (source, original) = isReal ? ("openapi.yaml", real) : snapshots[random.below(snapshots.count)]
            let (kind, mutant) = Self.mutate(original, &random)
            let name = "\(index)-\(source)-\(kind)"
            let specURL = folder.appendingPathComponent("mutant-\(index).yaml")
            let originalURL = folder.appendingPathComponent("original-\(index).yaml")
            try Data(mutant).write(to: specURL)
            try Data(original).write(to: originalURL)
            let output = folder.appendingPathComponent("out-\(index)")
            for arguments in [
                ["generate", "--spec", specURL.path, "--output", output.path, "--overrides", "none"],
                ["diff", originalURL.path, specURL.path, "--fail-on", "none"],
            ] {
                let outcome = try run(arguments)
                let label = "\(name) (\(arguments[0]))"
                if outcome.seconds > slowest.0 { slowest = (outcome.seconds, label) }
                if outcome.timedOut {
                    hangs.append(label)
                } else if outcome.signaled || ![0, 1].contains(outcome.status) {
                    crashes.append("\(label): status \(outcome.status)\n\(outcome.output.suffix(600))")
                } else if outcome.status == 1 {
                    rejected += 1
                    if outcome.output.firstMatch(of: located) == nil {
                        unlocated.append("\(label): \(outcome.output.prefix(400))")
                    }
                } else {
                    accepted += 1
                }
            }
            try? FileManager.default.removeItem(at: output)
        }
        print(
            "GeneratorFuzz: \(total) mutants (\(realCount) of the locked spec), \(total * 2) runs: \(crashes.count) crashes, "
                + "\(hangs.count) hangs, \(unlocated.count) messages without a location; \(accepted) accepted, "
                + "\(rejected) rejected with a location; slowest \(String(format: "%.2f", slowest.0)) s (\(slowest.1)); "
                + "peak child RSS \(POSIX.childrenPeakResidentKiB() / 1024) MiB")
        XCTAssertEqual(crashes, [])
        XCTAssertEqual(hangs, [])
        XCTAssertEqual(unlocated, [])
        XCTAssertLessThan(POSIX.childrenPeakResidentKiB() / 1024, 2048, "a run needed more than 2 GiB")
    }
}
