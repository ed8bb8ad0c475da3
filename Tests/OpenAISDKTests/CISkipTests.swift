import Foundation
import OpenAISDKTestSupport
import XCTest

/// With `CI=true` a test that cannot run fails instead of skipping, in the tests' own helper and in
/// the count `Scripts/test.sh` prints after `swift test` (`Scripts/lib/count-tests.sh`).
final class CISkipTests: XCTestCase {
    func testUnavailableSkipsOutsideCIAndFailsInCI() {
        XCTAssertTrue(Unavailable.skip("no ../shared", environment: [:]) is XCTSkip)
        XCTAssertTrue(Unavailable.skip("no ../shared", environment: ["CI": "false"]) is XCTSkip)
        let inCI = Unavailable.skip("no ../shared", environment: ["CI": "true"])
        XCTAssertFalse(inCI is XCTSkip, "XCTest fails a test that throws anything but XCTSkip")
        XCTAssertEqual("\(inCI)", "CI=true: this test must run, but no ../shared")
    }

    /// Runs `Scripts/lib/count-tests.sh` on a log; its exit status and output.
    private func count(_ log: String, ci: Bool) throws -> (status: Int32, output: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString).log")
        try Data(log.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("Scripts/lib/count-tests.sh").path, file.path]
        process.environment = ["PATH": "/usr/bin:/bin"].merging(ci ? ["CI": "true"] : [:]) { a, _ in a }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    func testTheCountTurnsASkipIntoAFailureInCI() throws {
        let skipped = """
            Test Case 'A.testOne' started at 2026-12-05 10:00:00.000
            Test Case 'A.testOne' passed (0.001 seconds)
            Test Case 'A.testTwo' skipped (0.000 seconds)
            """
        let outside = try count(skipped, ci: false)
        XCTAssertEqual(outside.status, 0, outside.output)
        XCTAssertTrue(outside.output.contains("swift test: 1 passed, 0 failed, 1 skipped"), outside.output)
        XCTAssertTrue(outside.output.contains("skipped: A.testTwo"), outside.output)
        let inCI = try count(skipped, ci: true)
        XCTAssertEqual(inCI.status, 1, inCI.output)
        XCTAssertTrue(inCI.output.contains("CI=true: 1 skipped tests have not passed"), inCI.output)
        let failed = try count("Test Case '-[M.A testOne]' failed (0.1 seconds)\n", ci: false)
        XCTAssertEqual(failed.status, 1, failed.output)
        XCTAssertTrue(failed.output.contains("0 passed, 1 failed, 0 skipped"), failed.output)
        XCTAssertEqual(try count("no tests here\n", ci: false).status, 2)
    }
}
