import Foundation
import OpenAICLI
import OpenAIRuntime
import OpenAISDKTestSupport
import XCTest

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `openai` tool against what a careless pipe or a hostile file system hands it (issue 42):
/// `--output` writes the way `curl -o` users expect, and a body piped on standard input never
/// makes the tool read local files unless `--allow-files` says where.
final class CLIHostileInputTests: XCTestCase {
    private func run(
        _ arguments: [String], headers: [String: String] = [:], stdin: String? = nil, name: String = #function
    ) async throws -> (outcome: CLIHarness.Outcome, records: [TestServer.Record]) {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario(name)
        let outcome = await CLIHarness.run(
            arguments, environment: CLIHarness.environment(server, scenario: scenario, headers: headers), stdin: stdin)
        return (outcome, try await server.requests(scenario: scenario))
    }

    private func folder(_ name: String = #function) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-hostile-\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func status(_ path: String) throws -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return info
    }

    private static let retrieve = ["models", "retrieve", "--model", "gpt-4o"]
    private static let download = ["files", "content", "--file-id", "file-abc"]

    func testOutputKeepsAnExistingFilesPermissions() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, words) in [Self.retrieve, Self.download].enumerated() {
            let secret = folder.appendingPathComponent("secret-\(index)")
            try Data("old".utf8).write(to: secret)
            XCTAssertEqual(chmod(secret.path, 0o600), 0)
            let outcome = try await run(
                words + ["--output", secret.path], headers: ["x-testserver-binary-size": "1000"]
            ).outcome
            XCTAssertEqual(outcome.status, 0, outcome.error)
            XCTAssertNotEqual(try String(contentsOf: secret, encoding: .isoLatin1), "old", "\(words)")
            XCTAssertEqual(try status(secret.path).st_mode & 0o7777, 0o600, "\(words): still 0600")
        }
        // A new file gets 0666 less the umask, as a shell's `>` gives it.
        let fresh = folder.appendingPathComponent("fresh.json")
        let created = try await run(Self.retrieve + ["--output", fresh.path]).outcome
        XCTAssertEqual(created.status, 0, created.error)
        let mask = umask(0)
        umask(mask)
        XCTAssertEqual(try status(fresh.path).st_mode & 0o7777, 0o666 & ~mask)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().count, 3)
    }

    func testOutputRefusesAFileWithOtherHardLinksUnlessForced() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("shared.json")
        let other = folder.appendingPathComponent("other-name.json")
        try Data("old".utf8).write(to: file)
        XCTAssertEqual(link(file.path, other.path), 0)
        for words in [Self.retrieve, Self.download] {
            let refused = try await run(words + ["--output", file.path])
            XCTAssertEqual(refused.outcome.status, 1, refused.outcome.error)
            XCTAssertTrue(refused.outcome.error.contains("has 2 hard links"), refused.outcome.error)
            XCTAssertTrue(refused.outcome.error.contains("--force"), refused.outcome.error)
            XCTAssertEqual(refused.records.count, 0, "refused before anything is sent")
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "old")
        }
        let forced = try await run(Self.retrieve + ["--output", file.path, "--force"]).outcome
        XCTAssertEqual(forced.status, 0, forced.error)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("\"object\""))
        XCTAssertEqual(try String(contentsOf: other, encoding: .utf8), "old", "the other name keeps its content")
    }

    func testOutputRefusesAnotherUsersFileUnlessForced() async throws {
        guard geteuid() == 0 else {
            // Not root (a developer's Mac): a file root owns is another user's, and is refused
            // before anything is written (never with --force here).
            var info = stat()
            XCTAssertEqual(stat("/etc/hosts", &info), 0)
            XCTAssertEqual(info.st_uid, 0)
            let refused = try await run(Self.retrieve + ["--output", "/etc/hosts"])
            XCTAssertEqual(refused.outcome.status, 1, refused.outcome.error)
            XCTAssertTrue(refused.outcome.error.contains("belongs to another user (uid 0)"), refused.outcome.error)
            XCTAssertEqual(refused.records.count, 0)
            return
        }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("theirs.json")
        try Data("old".utf8).write(to: file)
        XCTAssertEqual(chown(file.path, 65_534, 65_534), 0)
        let refused = try await run(Self.retrieve + ["--output", file.path])
        XCTAssertEqual(refused.outcome.status, 1, refused.outcome.error)
        XCTAssertTrue(refused.outcome.error.contains("belongs to another user (uid 65534)"), refused.outcome.error)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "old")
        let forced = try await run(Self.retrieve + ["--output", file.path, "--force"]).outcome
        XCTAssertEqual(forced.status, 0, forced.error)
        XCTAssertEqual(try status(file.path).st_uid, 0, "replaced, so now the caller's")
    }

    func testOutputWritesIntoAFIFOAndACharacterDeviceWithoutReplacingThem() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, words) in [Self.retrieve, Self.download].enumerated() {
            let fifo = folder.appendingPathComponent("pipe-\(index)")
            XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
            // A reader on the other end, as `openai … --output pipe & cat pipe` has.
            let received = Locked(Data())
            let reader = Thread {
                if let handle = FileHandle(forReadingAtPath: fifo.path) {
                    let bytes = handle.readDataToEndOfFile()
                    received.withLock { $0 = bytes }
                }
            }
            reader.start()
            let outcome = try await run(
                words + ["--output", fifo.path], headers: ["x-testserver-binary-size": "300000"]
            ).outcome
            XCTAssertEqual(outcome.status, 0, outcome.error)
            let deadline = Date().addingTimeInterval(10)
            while !reader.isFinished, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            let data = received.withLock { $0 }
            if index == 0 {
                XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"object\""), "the JSON reply")
            } else {
                XCTAssertEqual(data.count, 300_000, "the whole download")
            }
            XCTAssertEqual(try status(fifo.path).st_mode & S_IFMT, S_IFIFO, "\(words): still a FIFO")
        }
        // /dev/null stays the system's null device (as root, a rename would have replaced it).
        let before = try status("/dev/null")
        for words in [Self.retrieve, Self.download] {
            let outcome = try await run(words + ["--output", "/dev/null"]).outcome
            XCTAssertEqual(outcome.status, 0, outcome.error)
            let after = try status("/dev/null")
            XCTAssertEqual(after.st_mode & S_IFMT, S_IFCHR, "\(words)")
            XCTAssertEqual(after.st_ino, before.st_ino, "\(words): the same node")
            XCTAssertEqual(after.st_rdev, before.st_rdev)
        }
    }

    func testAtInABodyOnStandardInputIsTextUnlessAllowed() async throws {
        let create = ["admin:organization:projects", "create"]
        // `@/proc/self/environ` would send the environment, the API key in it.
        for name in ["@/proc/self/environ", "@alice"] {
            let (outcome, records) = try await run(create, stdin: "name: \"\(name)\"\n")
            XCTAssertEqual(outcome.status, 0, outcome.error)
            XCTAssertEqual(records.first?.bodyJSON?["name"], .string(name), "sent as written")
            XCTAssertFalse(Self.bodyText(records.first).contains("sk-test-cli"))
        }
        // On the command line the user wrote it: read.
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = folder.appendingPathComponent("name.txt")
        try Data("from a file".utf8).write(to: note)
        let flag = try await run(create + ["--name", "@" + note.path])
        XCTAssertEqual(flag.outcome.status, 0, flag.outcome.error)
        XCTAssertEqual(flag.records.first?.bodyJSON?["name"], .string("from a file"))
        // With --allow-files DIR, a piped body may name files under DIR, and only there.
        let allowed = try await run(
            create + ["--allow-files", folder.path], stdin: "name: \"@\(note.path)\"\n")
        XCTAssertEqual(allowed.outcome.status, 0, allowed.outcome.error)
        XCTAssertEqual(allowed.records.first?.bodyJSON?["name"], .string("from a file"))
        let outside = try await run(
            create + ["--allow-files", folder.path], stdin: "name: \"@/proc/self/environ\"\n")
        XCTAssertEqual(outside.outcome.status, 2, outside.outcome.error)
        XCTAssertTrue(outside.outcome.error.contains("read only under \(folder.path)"), outside.outcome.error)
        XCTAssertEqual(outside.records.count, 0)
        // A multipart file member on standard input names a file: refused without --allow-files.
        let upload = try await run(
            ["files", "create"], stdin: "file: \"@/proc/self/environ\"\npurpose: batch\n")
        XCTAssertEqual(upload.outcome.status, 2, upload.outcome.error)
        XCTAssertTrue(upload.outcome.error.contains("--allow-files DIR"), upload.outcome.error)
        XCTAssertEqual(upload.records.count, 0)
        let uploaded = try await run(
            ["files", "create", "--allow-files", folder.path], stdin: "file: \"@\(note.path)\"\npurpose: batch\n")
        XCTAssertEqual(uploaded.outcome.status, 0, uploaded.outcome.error)
        XCTAssertEqual(uploaded.records.first?.validation, "ok")
        let part = uploaded.records.first?.raw["parts"]?.arrayValue?.first { $0["name"] == "file" }
        XCTAssertEqual(part?["filename"], .string("name.txt"), "the file itself")
        XCTAssertEqual(part?["size"], .int("from a file".utf8.count))
    }

    func testYAMLIsTakenAsWrittenOrRefusedWithALocation() async throws {
        let chat = ["chat:completions", "create"]
        let messages = "model: gpt-4o\nmessages: [{role: user, content: hi}]\n"
        // A hex integer past 64 bits would have become 2.36e21.
        let hex = try await run(chat, stdin: messages + "seed: 0x7fffffffffffffffff\n")
        XCTAssertEqual(hex.outcome.status, 2, hex.outcome.error)
        XCTAssertTrue(hex.outcome.error.contains("does not fit 64 bits"), hex.outcome.error)
        XCTAssertTrue(hex.outcome.error.contains("3:7"), "located: \(hex.outcome.error)")
        XCTAssertEqual(hex.records.count, 0)
        // A decimal one is kept digit for digit.
        let decimal = try await run(chat, stdin: messages + "seed: 123456789012345678901234\n")
        XCTAssertTrue(
            Self.bodyText(decimal.records.first).contains("\"seed\":123456789012345678901234"),
            Self.bodyText(decimal.records.first))
        // A second document, or a duplicate key, is not dropped without a word.
        for (stdin, expected) in [
            ("name: one\n---\nname: two\n", "standard input is not taken as written"),
            ("name: one\nname: two\n", "standard input is not taken as written"),
        ] {
            let (outcome, records) = try await run(["admin:organization:projects", "create"], stdin: stdin)
            XCTAssertEqual(outcome.status, 2, outcome.error)
            XCTAssertTrue(outcome.error.contains(expected), outcome.error)
            XCTAssertTrue(outcome.error.contains("standard input:2:1:"), "located: \(outcome.error)")
            XCTAssertEqual(records.count, 0)
        }
        // Invalid UTF-8 is refused at its byte, not turned into U+FFFD.
        let server = try TestServer.shared()
        let scenario = TestServer.scenario(#function + "-utf8")
        let terminal = Terminal.capturing()
        let bytes = Data("name: ok\nother: caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        let status = await OpenAITool.run(
            ["admin:organization:projects", "create"], environment: CLIHarness.environment(server, scenario: scenario),
            terminal: terminal, stdin: { bytes })
        XCTAssertEqual(status, 2, terminal.capturedText.error)
        XCTAssertTrue(
            terminal.capturedText.error.contains("the byte 0xE9 at line 2, column 11 (byte 20)"),
            terminal.capturedText.error)
        let sent = try await server.requests(scenario: scenario)
        XCTAssertEqual(sent.count, 0)
    }

    func testTheKeyIsMaskedInEverySpellingAServerEchoesItIn() async throws {
        // CLIHarness's key is sk-test-cli-0123456789: each spelling below once defeated the prefix rules.
        let echoed = [
            "Bearer%2520sk-test-cli-0123456789", "sk%2Dtest-cli-0123456789", "%22sk-test-cli-0123456789%22",
            "1sk-test-cli-0123456789", #"\u0073k-test-cli-0123456789"#,
            Data("sk-test-cli-0123456789".utf8).base64EncodedString(),
        ]
        for spelling in echoed {
            for debug in [false, true] {
                let (outcome, _) = try await run(
                    Self.retrieve + (debug ? ["--debug"] : []),
                    headers: ["x-testserver-fail-status": "401", "x-testserver-fail-message": "Bad key: \(spelling)."])
                XCTAssertEqual(outcome.status, 4, outcome.error)
                XCTAssertTrue(outcome.error.contains("Bad key: "), outcome.error)
                XCTAssertFalse(outcome.error.contains("0123456789"), "\(spelling), debug \(debug): \(outcome.error)")
                XCTAssertFalse(outcome.error.contains("c2stdGVzdC1jbGktMDEyMzQ1Njc4OQ"), outcome.error)
            }
        }
    }

    func testControlCharactersOfATextReplyAreEscapedOnATerminalUnlessRaw() async throws {
        // OSC 52 (write the clipboard), a title, clear the screen: what a hostile server could send.
        let body = "hello \u{1B}]52;c;aGk=\u{07} \u{1B}]0;title\u{07}\u{1B}[2J bye\n\tend\n"
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = folder.appendingPathComponent("a.mp3")
        try Data("ID3".utf8).write(to: audio)
        let words = [
            "audio:transcriptions", "create", "--file", "@" + audio.path, "--model", "whisper-1", "--response-format",
            "text",
        ]
        func run(_ extra: [String], terminal: Bool) async -> String {
            let transport = ScriptedTransport { _, _ in
                HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))
            }
            let output = Terminal.capturing(outputIsTerminal: terminal)
            let status = await OpenAITool.run(
                words + extra, environment: ["OPENAI_API_KEY": "sk-test-escape-0123"], terminal: output,
                stdin: { nil }, transport: transport)
            XCTAssertEqual(status, 0, output.capturedText.error)
            return output.capturedText.output
        }
        let shown = await run([], terminal: true)
        XCTAssertFalse(shown.contains("\u{1B}"), shown)
        XCTAssertFalse(shown.contains("\u{07}"), shown)
        XCTAssertTrue(shown.contains("hello \\u{1b}]52;c;aGk=\\u{7}"), shown)
        XCTAssertTrue(shown.hasSuffix(" bye\n\tend\n"), "newlines and tabs kept: \(shown)")
        // On purpose: --format raw writes the bytes as they came; so does a pipe.
        let raw = await run(["--format", "raw"], terminal: true)
        XCTAssertEqual(raw, body)
        let piped = await run([], terminal: false)
        XCTAssertEqual(piped, body)
    }

    func testTimeoutEndsAStalledRequest() async throws {
        let start = Date()
        let (outcome, _) = try await run(
            Self.retrieve + ["--timeout", "0.3"], headers: ["x-testserver-delay-ms": "5000"],
            stdin: nil)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(outcome.status, 6, "a timeout is exit status 6: \(outcome.error)")
        XCTAssertLessThan(elapsed, 4.5, "not the server's 5 s")
        for bad in ["0", "-1", "nan", "inf", "soon"] {
            let refused = try await run(Self.retrieve + ["--timeout", bad]).outcome
            XCTAssertEqual(refused.status, 2, "\(bad): \(refused.error)")
            XCTAssertTrue(refused.error.contains("--timeout takes a number of seconds"), refused.error)
        }
    }

    func testPagingStopsAtTheDefaultCapWithANote() async throws {
        // A server with 1,000 pages of 100: without --max-items the walk ends at 10,000 items.
        let (outcome, records) = try await run(
            ["files", "list", "--limit", "100", "--format", "jsonl"], headers: ["x-testserver-pages": "1000"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(outcome.output.split(separator: "\n").count, 10_000)
        XCTAssertEqual(records.count, 100, "no page past the cap is fetched")
        XCTAssertTrue(outcome.error.contains("stopped after 10000 items, the default --max-items"), outcome.error)
        // --max-items raises it; fewer items than the cap say nothing.
        let raised = try await run(
            ["files", "list", "--limit", "100", "--format", "jsonl", "--max-items", "10050"],
            headers: ["x-testserver-pages": "1000"], name: #function + "-raised")
        XCTAssertEqual(raised.outcome.output.split(separator: "\n").count, 10_050)
        XCTAssertFalse(raised.outcome.error.contains("stopped after"), raised.outcome.error)
    }

    func testAStreamedEventOverTheRuntimesBoundEndsTheCommand() async {
        // An event that never ends: 65 chunks of 1 MiB after `data: `, past the 64 MiB bound.
        let chunk = Data(repeating: 0x61, count: 1 << 20)
        let transport = ScriptedStreamTransport([
            .stream(
                status: 200, headers: ["Content-Type": "text/event-stream", "x-request-id": "req_big"],
                chunks: [Data("data: ".utf8)] + Array(repeating: chunk, count: 65), hold: false)
        ])
        let terminal = Terminal.capturing()
        let status = await OpenAITool.run(
            [
                "chat:completions", "create", "--model", "gpt-4o", "--stream", "--messages",
                "[{role: user, content: hi}]",
            ],
            environment: ["OPENAI_API_KEY": "sk-test-stream-0123"], terminal: terminal, stdin: { nil },
            transport: transport)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(
            terminal.capturedText.error.contains("A server-sent event exceeded 67108864 bytes"),
            terminal.capturedText.error)
        XCTAssertEqual(terminal.capturedText.output, "", "nothing printed of it")
    }

    /// The request body as the test server recorded it, as text.
    private static func bodyText(_ record: TestServer.Record?) -> String {
        record?.raw["body"]?["text"]?.stringValue ?? ""
    }
}
