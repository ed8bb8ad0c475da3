import Foundation
import OpenAICLI
import OpenAISDKTestSupport
import XCTest

/// The command-line examples of CLI.md and of the README's short "Command-line tool" section, run as
/// written against the test server (files named in them made in a temporary folder).
final class CLIReadmeTests: XCTestCase {
    func testTheReadmeExamplesRunAndTheServerValidatesThem() async throws {
        let server = try TestServer.shared()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"messages\": []}\n".utf8).write(to: folder.appendingPathComponent("train.jsonl"))

        let reference = try Self.commands(in: "CLI.md", folder: folder)
        XCTAssertEqual(reference.count, 7, "CLI.md: the six examples (the fifth has two commands)")
        let readme = try Self.commands(in: "README.md", folder: folder)
        XCTAssertEqual(readme.count, 2, "README.md: the two examples of its Command-line tool section")
        for (words, stdin) in reference + readme {
            let scenario = TestServer.scenario("readme")
            let outcome = await CLIHarness.run(
                words, environment: CLIHarness.environment(server, scenario: scenario), stdin: stdin)
            XCTAssertEqual(outcome.status, 0, "openai \(words.joined(separator: " ")): \(outcome.error)")
            let records = try await server.requests(scenario: scenario)
            XCTAssertFalse(records.isEmpty, "\(words)")
            XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(words): \(records.map(\.validationErrors))")
            if words.starts(with: ["admin:organization:projects", "create"]) {
                XCTAssertEqual(records.first?.bodyJSON?["name"], "Team B", "the flag wins over standard input")
                XCTAssertEqual(records.first?.bodyJSON?["residency"], "EU_STORAGE_PROCESSING")
            }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("hello.mp3").path))
    }

    /// The `openai` command lines of the first `sh` block under "## Command-line tool" in the package's
    /// file `name`, without the leading `openai`, each with the standard input its here-document gives;
    /// `@path` values and `--output` files are made paths in `folder`.
    static func commands(in name: String, folder: URL) throws -> [(words: [String], stdin: String?)] {
        let document = try String(contentsOf: SharedData.packageRoot.appendingPathComponent(name), encoding: .utf8)
        let section = try XCTUnwrap(
            document.components(separatedBy: "## Command-line tool\n").dropFirst().first,
            "\(name) has no Command-line tool section")
        let block = try XCTUnwrap(
            section.components(separatedBy: "```sh\n").dropFirst().first?
                .components(separatedBy: "\n```").first,
            "\(name): no sh block under Command-line tool")

        var commands: [(words: [String], stdin: String?)] = []
        var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        while let line = lines.popFirst() {
            var text = line
            while text.hasSuffix("\\"), let next = lines.popFirst() { text = String(text.dropLast()) + next }
            var words = Self.words(text)
            while let first = words.first, first.contains("="), !first.hasPrefix("-") { words.removeFirst() }
            guard words.first == "openai" else { continue }
            var stdin: String?
            if let heredoc = words.firstIndex(where: { $0.hasPrefix("<<") }) {
                let end = words[heredoc].dropFirst(2)
                words.removeSubrange(heredoc...)
                var body: [String] = []
                while let next = lines.popFirst(), next != end { body.append(next) }
                stdin = body.joined(separator: "\n") + "\n"
            }
            words = words.dropFirst().map { word in
                if word.hasPrefix("@") { return "@" + folder.appendingPathComponent(String(word.dropFirst())).path }
                return word
            }
            if let output = words.firstIndex(of: "--output") {
                words[output + 1] = folder.appendingPathComponent(words[output + 1]).path
            }
            commands.append((words, stdin))
        }
        return commands
    }

    /// The words of a shell command line: blanks split, single quotes literal, double quotes and
    /// backslashes as the shell reads them, `#` starting a comment.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if character == "#" && !inWord {
                break
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
