import Foundation
import OpenAICLI
import OpenAIRuntime
import OpenAISDKTestSupport
import XCTest

/// Runs the `openai` tool in process against the local test server, or its built binary as a
/// process (for exit statuses, standard input and the completion scripts).
enum CLIHarness {
    /// What one run printed and returned.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// The environment of a run against `server`: test keys, the server's base URL and the
    /// scenario (with further test-server headers) as `OPENAI_CUSTOM_HEADERS`.
    static func environment(
        _ server: TestServer, scenario: String, headers: [String: String] = [:]
    ) -> [String: String] {
        let lines = (["x-testserver-scenario": scenario].merging(headers) { a, _ in a })
            .sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return [
            "OPENAI_API_KEY": "sk-test-cli-0123456789", "OPENAI_ADMIN_KEY": "sk-admin-test-0123456789",
            "OPENAI_BASE_URL": server.baseURL.absoluteString, "OPENAI_CUSTOM_HEADERS": lines.joined(separator: "\n"),
        ]
    }

    /// Runs the tool in process with `arguments`, `stdin` as standard input's text.
    static func run(
        _ arguments: [String], environment: [String: String], stdin: String? = nil, outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false
    ) async -> Outcome {
        let terminal = Terminal.capturing(outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal)
        let bytes = stdin.map { Data($0.utf8) }
        let status = await OpenAITool.run(arguments, environment: environment, terminal: terminal, stdin: { bytes })
        let captured = terminal.capturedText
        return Outcome(status: status, output: captured.output, error: captured.error)
    }

    /// The built `openai` binary beside the test bundle (`swift build` builds it with the tests).
    ///
    /// - Throws: ``Unavailable/skip(_:)`` when it has not been built.
    static func binary() throws -> URL {
        // The products folder: the test bundle's (Linux: the folder of the test executable), or the
        // one above the `.xctest` bundle (macOS).
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        let folder =
            [bundle, bundle.deletingLastPathComponent()].first {
                FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("openai").path)
            } ?? bundle
        let binary = folder.appendingPathComponent("openai")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Unavailable.skip("the openai binary is not built at \(binary.path): run swift build")
        }
        return binary
    }

    /// Runs the built binary with `arguments`, `stdin` (or `/dev/null`) as standard input.
    static func process(
        _ arguments: [String], environment: [String: String], stdin: String? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Both pipes at once: a child filling one while the other is read to its end would block.
        let errorData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let bytes = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = bytes }
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    private final class BundleMarker {}

    /// The example arguments of every operation (`Scripts/servers/testserver/cli_examples.py` on the locked spec).
    static func examples() throws -> [String: JSON] {
        let root = SharedData.packageRoot
        let spec = try SharedData.generatedFromSpec()
        let environment = ProcessInfo.processInfo.environment
        let python =
            environment["OPENAI_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent("Scripts/.venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Unavailable.skip("no Python at \(python): run Scripts/test.sh or set OPENAI_TEST_PYTHON")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("Scripts/servers/testserver/cli_examples.py").path, spec.path]
        process.currentDirectoryURL = root.appendingPathComponent("Scripts/servers/testserver")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "cli_examples.py failed")
        guard case .object(let members) = try JSON.parse(data) else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}
