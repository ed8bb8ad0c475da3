import Foundation
import OpenAICLI
import XCTest

/// The GitHub workflows hold what the tests they run need, so that a leg cannot go red for a tool
/// it never installed (`CI=true` turns a missing tool into a failure): read on Linux, where they
/// cannot run.
final class WorkflowTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The workflow's jobs by id, parsed from its YAML.
    private func jobs(_ name: String) throws -> [JSON.Member] {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent(".github/workflows/\(name)"), encoding: .utf8)
        guard case .object(let jobs)? = try YAMLText.parse(text, source: name)["jobs"] else {
            throw CLIError.failure("\(name) has no jobs")
        }
        return jobs
    }

    /// Every `run` of a job's steps, in order.
    private func runs(_ job: JSON) -> [String] { (job["steps"]?.array ?? []).compactMap { $0["run"]?.string } }

    func testEveryLegThatRunsTheWholeSuiteInstallsTheShellsItsCompletionTestNeeds() throws {
        var checked: [String] = []
        for file in ["platforms.yml", "ci.yml"] {
            for job in try jobs(file) {
                let scripts = runs(job.value)
                // `swift test` without a filter runs CLIBehaviorTests' zsh and fish test; Scripts/test.sh and
                // .ci/run install both themselves (Scripts/test.sh, step_system_packages).
                let whole = scripts.contains { script in
                    script.split(separator: "\n").contains { $0.contains("swift test") && !$0.contains("--filter") }
                }
                guard whole else { continue }
                checked.append("\(file):\(job.key)")
                let installs = scripts.joined(separator: "\n")
                let macOS = job.value["runs-on"]?.string?.hasPrefix("macos") == true
                XCTAssertTrue(installs.contains("fish"), "\(file) \(job.key) runs swift test without installing fish")
                XCTAssertTrue(
                    macOS || installs.contains("zsh"), "\(file) \(job.key) runs swift test without installing zsh")
            }
        }
        XCTAssertEqual(checked.sorted(), ["platforms.yml:linux", "platforms.yml:macos"], "the legs that run it all")
        XCTAssertTrue(
            try String(contentsOf: Self.root.appendingPathComponent("Scripts/test.sh"), encoding: .utf8)
                .contains("apt_install fish"), "Scripts/test.sh (ci.yml's .ci/run) installs fish")
    }

    func testTheSimulatorLegUsesTheRuntimeOfItsSDKVersion() throws {
        let simulators = try XCTUnwrap(try jobs("platforms.yml").first { $0.key == "apple-simulators" }?.value)
        let script = runs(simulators).joined(separator: "\n")
        XCTAssertTrue(script.contains("--show-sdk-version"), script)
        XCTAssertTrue(script.contains("-downloadPlatform \"$PLATFORM\" -buildVersion \"$version\""), script)
        XCTAssertTrue(script.contains("grep -q \"^$PLATFORM $version \""), "a runtime of another version is not taken")
    }

    func testEveryLegCanBeRunAloneByHand() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent(".github/workflows/platforms.yml"), encoding: .utf8)
        let workflow = try YAMLText.parse(text, source: "platforms.yml")
        // `on:` is YAML 1.1's boolean in some readers; this one keeps it a string.
        let options = workflow["on"]?["workflow_dispatch"]?["inputs"]?["leg"]?["options"]?.array?.compactMap(\.string)
        let legs = try jobs("platforms.yml").map(\.key)
        XCTAssertEqual(options, ["all"] + legs)
        for job in try jobs("platforms.yml") {
            let condition = job.value["if"]?.string ?? ""
            XCTAssertTrue(condition.contains("inputs.leg == '\(job.key)'"), "\(job.key): \(condition)")
            XCTAssertTrue(condition.contains("inputs.leg == 'all'"), "\(job.key): \(condition)")
        }
    }
}
