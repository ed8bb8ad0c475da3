import Foundation
import OpenAICLI
import OpenAISDKTestSupport
import XCTest

/// The `openai` tool's behaviours against the test server: formats, transforms, paging, streams,
/// uploads, downloads, bodies on standard input, file values, exit statuses, suggestions and
/// completions.
final class CLIBehaviorTests: XCTestCase {
    private func run(
        _ arguments: [String], headers: [String: String] = [:], stdin: String? = nil, outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false, environment: [String: String] = [:], name: String = #function
    ) async throws -> (outcome: CLIHarness.Outcome, records: [TestServer.Record]) {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario(name)
        let outcome = await CLIHarness.run(
            arguments,
            environment: CLIHarness.environment(server, scenario: scenario, headers: headers).merging(environment) {
                _, new in new
            }.filter { !$0.value.isEmpty }, stdin: stdin, outputIsTerminal: outputIsTerminal,
            errorIsTerminal: errorIsTerminal)
        return (outcome, try await server.requests(scenario: scenario))
    }

    private func json(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func testFormatsPrintTheSameReply() async throws {
        let words = ["models", "retrieve", "--model", "gpt-4o"]
        let json = try await run(words + ["--format", "json"]).outcome
        XCTAssertEqual(json.status, 0, json.error)
        let value = try self.json(json.output)
        XCTAssertEqual(value["object"], .string("model"))
        XCTAssertTrue(json.output.contains("\n  \""), "json is indented")

        let jsonl = try await run(words + ["--format", "jsonl"]).outcome
        XCTAssertEqual(jsonl.output.split(separator: "\n").count, 1)
        XCTAssertEqual(try self.json(jsonl.output), value)

        let yaml = try await run(words + ["--format", "yaml"]).outcome
        XCTAssertTrue(yaml.output.contains("object: model"), yaml.output)
        XCTAssertEqual(try YAMLText.parse(yaml.output, source: "test"), value, "YAML reads back as the same value")

        let raw = try await run(words + ["--format", "raw"]).outcome
        XCTAssertEqual(try self.json(raw.output), value)

        // Not a terminal: auto is json.
        let auto = try await run(words).outcome
        XCTAssertEqual(auto.output, json.output)
        let pretty = try await run(words + ["--format", "pretty"]).outcome
        XCTAssertEqual(try self.json(pretty.output), value)
    }

    func testTransformPicksFieldsOfEveryPage() async throws {
        let (outcome, records) = try await run(
            ["files", "list", "--limit", "2", "--transform", "id", "--format", "jsonl"],
            headers: ["x-testserver-pages": "2"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        // jsonl prints each item as its page arrives, the transform applied to each.
        XCTAssertEqual(outcome.output, "\"item_1\"\n\"item_2\"\n\"item_3\"\n\"item_4\"\n")
        XCTAssertEqual(records.count, 2)

        let merged = try await run(
            ["files", "list", "--limit", "2", "--transform", "data.#.id"], headers: ["x-testserver-pages": "2"]
        ).outcome
        XCTAssertEqual(
            try json(merged.output), .array(["item_1", "item_2", "item_3", "item_4"].map(JSON.string)), merged.error)
        let count = try await run(
            ["files", "list", "--limit", "2", "--transform", "data.#"], headers: ["x-testserver-pages": "2"]
        ).outcome
        XCTAssertEqual(count.output, "4\n")
    }

    func testListsPageUpToMaxItems() async throws {
        let (lines, records) = try await run(
            ["files", "list", "--limit", "2", "--max-items", "5", "--format", "jsonl"],
            headers: ["x-testserver-pages": "4"])
        XCTAssertEqual(lines.status, 0, lines.error)
        let ids = try lines.output.split(separator: "\n").map { try json(String($0))["id"] }
        XCTAssertEqual(ids, ["item_1", "item_2", "item_3", "item_4", "item_5"].map(JSON.string))
        XCTAssertEqual(records.count, 3, "three pages of two for five items")
        XCTAssertEqual(records.map { $0.query.first { $0.0 == "after" }?.1 }, [nil, "item_2", "item_4"])

        let (all, allRecords) = try await run(
            ["files", "list", "--limit", "2", "--format", "json"], headers: ["x-testserver-pages": "4"])
        let merged = try json(all.output)
        XCTAssertEqual(merged["data"]?.array?.count, 8)
        XCTAssertEqual(merged["has_more"], .bool(false))
        XCTAssertEqual(merged["last_id"], .string("item_8"))
        XCTAssertEqual(allRecords.count, 4)

        let capped = try json(
            try await run(["files", "list", "--limit", "2", "--max-items", "3"], headers: ["x-testserver-pages": "4"])
                .outcome.output)
        XCTAssertEqual(capped["data"]?.array?.count, 3)
        XCTAssertEqual(capped["has_more"], .bool(true), "items remained")
    }

    private let chat = [
        "chat:completions", "create", "--model", "gpt-4o", "--messages", "[{role: user, content: Say hi.}]", "--stream",
    ]

    func testStreamsPrintOneJSONLinePerEvent() async throws {
        let (outcome, records) = try await run(chat)
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(records.first?.validation, "ok")
        XCTAssertEqual(records.first?.bodyJSON?["stream"], .bool(true))
        let events = try outcome.output.split(separator: "\n").map { try json(String($0)) }
        XCTAssertGreaterThan(events.count, 1)
        XCTAssertTrue(events.allSatisfy { $0["object"] == .string("chat.completion.chunk") })
        XCTAssertEqual(events.last?["choices"]?.array?.first?["finish_reason"], .string("stop"))

        let deltas = try await run(chat + ["--transform", "choices.0.delta.content"]).outcome
        XCTAssertTrue(deltas.output.contains("\"Hello\""), deltas.output)

        let raw = try await run(chat + ["--format", "raw"]).outcome
        XCTAssertTrue(raw.output.hasPrefix("data: {"), raw.output)
        XCTAssertTrue(raw.output.contains("\n\ndata: "), "the SSE bytes as sent")
    }

    func testAStreamCutOffFailsWithStatus7AndABrokenConnectionWith6() async throws {
        // A body that ends cleanly before the stream is complete: status 7, the runtime's message.
        let (outcome, _) = try await run(chat, headers: ["x-testserver-end-after-bytes": "120"])
        XCTAssertEqual(outcome.status, 7, outcome.error)
        XCTAssertTrue(outcome.error.contains("The connection closed in the middle of an event"), outcome.error)
        // A connection that breaks is a connection failure (6), as the SDK's streams report it.
        let dropped = try await run(chat, headers: ["x-testserver-drop-after-frames": "1"]).outcome
        XCTAssertEqual(dropped.status, 6, dropped.error)
        XCTAssertEqual(dropped.output.split(separator: "\n").count, 1, "the event before the cut is printed")
        XCTAssertTrue(dropped.error.contains("The connection failed"), dropped.error)

        let reported = try await run(chat, headers: ["x-testserver-stream-error-after": "1"]).outcome
        XCTAssertEqual(reported.status, 5, reported.error)
        XCTAssertTrue(reported.error.contains("error:"), reported.error)
    }

    func testUploadsAFileAsAMultipartPart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-upload-\(UUID().uuidString).jsonl")
        try Data("{\"prompt\": \"a\"}\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (outcome, records) = try await run(["files", "create", "--file", "@" + file.path, "--purpose", "batch"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.validation, "ok", "\(records.first?.validationErrors ?? [])")
        XCTAssertTrue(records.first?.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let part = records.first?.raw["parts"]?.arrayValue?.first { $0["name"] == "file" }
        XCTAssertEqual(part?["filename"], .string(file.lastPathComponent))
        XCTAssertEqual(part?["size"], .int(16))
        XCTAssertEqual(records.first?.raw["parts"]?.arrayValue?.first { $0["name"] == "purpose" }?["value"], "batch")
        XCTAssertEqual(try json(outcome.output)["object"], .string("file"))
    }

    func testDownloadsABinaryReplyToOutput() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cli-download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let (outcome, records) = try await run(
            ["files", "content", "--file-id", "file-abc", "--output", file.path],
            headers: ["x-testserver-binary-size": "200000"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(try Data(contentsOf: file).count, 200_000)
        XCTAssertEqual(outcome.output, "", "nothing on standard output")
        XCTAssertTrue(outcome.error.contains("wrote 200000 bytes"), outcome.error)
    }

    func testUploadsAndDownloadsDrawAProgressBarOnATerminal() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cli-progress-\(UUID().uuidString)")
        try Data(repeating: 0x61, count: 300_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let upload = try await run(
            ["files", "create", "--file", "@" + file.path, "--purpose", "batch"], errorIsTerminal: true
        ).outcome
        XCTAssertEqual(upload.status, 0, upload.error)
        XCTAssertTrue(upload.error.contains("\rupload [=============================="), upload.error)
        XCTAssertTrue(upload.error.contains("100%"), upload.error)
        let output = file.appendingPathExtension("out")
        defer { try? FileManager.default.removeItem(at: output) }
        let download = try await run(
            ["files", "content", "--file-id", "file-abc", "--output", output.path],
            headers: ["x-testserver-binary-size": "250000"], errorIsTerminal: true
        ).outcome
        XCTAssertEqual(download.status, 0, download.error)
        XCTAssertTrue(download.error.contains("\rdownload [="), download.error)
        XCTAssertTrue(download.error.contains("100% 250.0 kB / 250.0 kB"), download.error)
        // Not a terminal: no bar.
        let quiet = try await run(["files", "create", "--file", "@" + file.path, "--purpose", "batch"]).outcome
        XCTAssertFalse(quiet.error.contains("upload"), quiet.error)
    }

    func testBodyOnStandardInputWithFlagsOverMembers() async throws {
        let stdin = "name: from-stdin\nresidency: US_STORAGE_PROCESSING\n"
        let (outcome, records) = try await run(
            ["admin:organization:projects", "create", "--name", "from-flag"], stdin: stdin)
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(records.first?.validation, "ok")
        XCTAssertEqual(records.first?.bodyJSON?["name"], .string("from-flag"))
        XCTAssertEqual(records.first?.bodyJSON?["residency"], .string("US_STORAGE_PROCESSING"))
        XCTAssertEqual(records.first?.headers["authorization"], "Bearer sk-admin-test-0123456789", "the admin key")
    }

    func testObjectFlagsTakeYAMLFlowAndFilesTakeAtPaths() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("prompt.txt")
        try Data("Say hi from a file.".utf8).write(to: text)
        let (outcome, records) = try await run([
            "responses", "create", "--model", "gpt-4.1", "--input", "@" + text.path,
            "--metadata", "{team: cli, run: '1'}", "--include", "reasoning.encrypted_content",
            "--include", "message.output_text.logprobs", "--instructions", "\\@literal", "--temperature", "0.5",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let body = try XCTUnwrap(records.first?.bodyJSON)
        XCTAssertEqual(records.first?.validation, "ok", "\(records.first?.validationErrors ?? [])")
        XCTAssertEqual(body["input"], .string("Say hi from a file."))
        XCTAssertEqual(body["metadata"], .object(["team": .string("cli"), "run": .string("1")]))
        XCTAssertEqual(
            body["include"], .array([.string("reasoning.encrypted_content"), .string("message.output_text.logprobs")]))
        XCTAssertEqual(body["instructions"], .string("@literal"))
        XCTAssertEqual(body["temperature"], .double(0.5))

        let data = try await run(["responses", "create", "--model", "gpt-4.1", "--input", "@data://" + text.path])
        XCTAssertEqual(
            data.records.first?.bodyJSON?["input"], .string(Data("Say hi from a file.".utf8).base64EncodedString()))
    }

    func testValuesAreCheckedBeforeAnythingIsSent() async throws {
        let cases: [([String], String)] = [
            (["vector-stores:files", "list"], "needs --vector-store-id"),
            (["files", "list", "--order", "ascc"], "did you mean `asc`?"),
            (["files", "list", "--limit", "ten"], "takes a whole number"),
            (["responses", "create", "--temperature", "hot"], "takes a number"),
            (["responses", "create", "--metadata", "[1, 2]"], "takes an object"),
            (["responses", "create", "--modle", "gpt-4.1"], "did you mean `--model`?"),
            (["respones", "create"], "did you mean `responses`?"),
            (["responses", "craete"], "did you mean `create`?"),
            (["files", "create", "--file", "@/no/such/file", "--purpose", "batch"], "cannot read the file"),
            (["models", "list", "--format", "jsn"], "did you mean `json`?"),
        ]
        for (words, message) in cases {
            let (outcome, records) = try await run(words)
            XCTAssertEqual(outcome.status, 2, "\(words): \(outcome.error)")
            XCTAssertTrue(outcome.error.contains(message), "\(words): \(outcome.error)")
            XCTAssertEqual(records.count, 0, "\(words): nothing sent")
        }
    }

    func testHelpComesFromTheSpec() async throws {
        let help = try await run(["responses", "create", "--help"]).outcome
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("POST /responses [createResponse]"), help.output)
        XCTAssertTrue(help.output.contains("--model STRING"), help.output)
        XCTAssertTrue(help.output.contains("Known values: "), "the model names")
        let list = try await run(["files", "list", "--help"]).outcome.output
        XCTAssertTrue(list.contains("--order asc|desc"), list)
        XCTAssertTrue(list.contains("--max-items N"), list)
        let root = try await run([]).outcome.output
        XCTAssertTrue(root.contains("vector-stores:files"), root)
        XCTAssertTrue(root.contains("admin:organization:users"), root)
        let alias = try await run(["fine-tuning:checkpoints:permissions", "retrieve", "--help"]).outcome
        XCTAssertTrue(alias.output.contains("[listFineTuningCheckpointPermissions]"), "the official alias runs list")
    }

    func testMCPCommandLine() async throws {
        let help = try await run(["mcp", "--help"]).outcome
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("usage: openai mcp"), help.output)
        let list = try await run(["mcp", "--list", "--resource", "vector-stores:file*", "--read-only"]).outcome
        XCTAssertEqual(list.status, 0, list.error)
        XCTAssertEqual(
            list.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) },
            [
                "vector_stores_file_batches_list_files", "vector_stores_file_batches_retrieve",
                "vector_stores_files_content",
                "vector_stores_files_list", "vector_stores_files_retrieve",
            ])
        let unknown = try await run(["mcp", "--tool", "dynamic"]).outcome
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.error.contains("did you mean `--tools`?"), unknown.error)
    }

    func testCompletionCandidatesComeFromTheCatalogue() {
        let catalogue = Catalogue.shared
        func candidates(_ line: String) -> [String] { Completion.candidates(line: line, catalogue: catalogue) }
        XCTAssertEqual(
            candidates("openai vector-st"), ["vector-stores", "vector-stores:file-batches", "vector-stores:files"])
        XCTAssertEqual(
            candidates("openai vector-stores:files "), ["content", "create", "delete", "list", "retrieve", "update"])
        XCTAssertEqual(candidates("openai files list --ord"), ["--order"])
        XCTAssertEqual(candidates("openai files list --order "), ["asc", "desc"])
        XCTAssertEqual(candidates("openai completion "), ["bash", "zsh", "fish"])
        XCTAssertTrue(candidates("openai responses create --model gpt-4.1-").contains("gpt-4.1-mini"))
    }

    func testTheBashCompletionScriptCompletesCommands() throws {
        let binary = try CLIHarness.binary()
        let script = """
            eval "$(openai completion bash)"
            COMP_LINE="openai vector-stores:fi"; COMP_POINT=${#COMP_LINE}
            _openai; printf '%s\\n' "${COMPREPLY[@]}"
            COMP_LINE="openai files list --or"; COMP_POINT=${#COMP_LINE}
            _openai; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = ["PATH": binary.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // bash splits the word at `:`, so the reply is the part after it.
        XCTAssertEqual(text, "file-batches\nfiles\n--order\n--organization\n")
    }

    /// zsh: the script's function, with `compadd` and `_files` standing in for the completion system's
    /// (they work only inside a completion widget); fish: its own `complete -C`.
    func testTheZshAndFishCompletionScriptsComplete() throws {
        let binary = try CLIHarness.binary()
        let zsh = """
            compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@" }
            _files() { print -- FILES }
            compdef() { : }
            eval "$(openai completion zsh)"
            BUFFER="openai vector-stores:fi"; CURSOR=${#BUFFER}; _openai
            BUFFER="openai files list --or"; CURSOR=${#BUFFER}; _openai
            BUFFER="openai files create --file "; CURSOR=${#BUFFER}; _openai
            """
        // Run outside the assertions: a shell that is missing skips (outside CI), which an
        // assertion's autoclosure would report as a failure.
        let zshOutput = try Self.shell("zsh", zsh, binary: binary)
        XCTAssertEqual(zshOutput, "vector-stores:file-batches\nvector-stores:files\n--order\n--organization\nFILES\n")
        let fish = """
            openai completion fish | source
            complete -C "openai vector-stores:fi"
            complete -C "openai files list --order "
            """
        // fish sorts candidates its own way (which differs between versions): compare sets.
        let fishOutput = try Self.shell("fish", fish, binary: binary)
        XCTAssertEqual(
            Set(fishOutput.split(separator: "\n").map(String.init)),
            ["vector-stores:files", "vector-stores:file-batches", "asc", "desc"])
    }

    /// Runs `script` with the shell `name` (from `/usr/bin` or `/bin`), the binary's folder first on `PATH`.
    ///
    /// - Throws: ``Unavailable/skip(_:)`` when the shell is not installed (`Scripts/test.sh` installs it).
    private static func shell(_ name: String, _ script: String, binary: URL) throws -> String {
        // Where Debian, macOS and Homebrew (Apple silicon, Intel) put it, then the PATH's folders.
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let folders = ["/usr/bin", "/bin", "/opt/homebrew/bin", "/usr/local/bin"] + path
        guard let path = folders.map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile) else {
            throw Unavailable.skip("\(name) is not installed: run Scripts/test.sh (it installs zsh and fish)")
        }
        // A home of its own, removed after: fish writes its configuration and history there.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", script]
        process.environment = [
            "PATH": binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": home.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    func testExitStatusesOfTheProcess() throws {
        let server = try TestServer.shared()
        func status(_ words: [String], _ headers: [String: String]) throws -> CLIHarness.Outcome {
            try CLIHarness.process(
                words,
                environment: CLIHarness.environment(server, scenario: TestServer.scenario("exit"), headers: headers))
        }
        let retrieve = ["models", "retrieve", "--model", "gpt-4o"]
        let badRequest = try status(
            retrieve, ["x-testserver-fail-status": "400", "x-testserver-should-retry": "false"])
        XCTAssertEqual(badRequest.status, 4, badRequest.error)
        XCTAssertTrue(badRequest.error.contains("status 400"), badRequest.error)
        XCTAssertTrue(badRequest.error.contains("request id: req_"), badRequest.error)
        let notFound = try status(retrieve, ["x-testserver-fail-status": "404"])
        XCTAssertEqual(notFound.status, 4, notFound.error)
        XCTAssertTrue(notFound.error.contains("type invalid_request_error"), notFound.error)
        let serverError = try status(
            retrieve, ["x-testserver-fail-status": "500", "x-testserver-should-retry": "false"])
        XCTAssertEqual(serverError.status, 5, serverError.error)
        XCTAssertEqual(try status(["models", "retrieve"], [:]).status, 2, "a usage error")
        XCTAssertEqual(try status(["models", "list", "--help"], [:]).status, 0)

        // A port nothing listens on: the connection is refused (after the client's retries).
        let refused = try CLIHarness.process(
            ["models", "list", "--base-url", "http://127.0.0.1:9/v1"], environment: ["OPENAI_API_KEY": "sk-test-x"])
        XCTAssertEqual(refused.status, 6, refused.error)
    }

    func testNoCredentialInAnyOutput() throws {
        let server = try TestServer.shared()
        let secret = "sk-proj-SECRETcli0123456789abcdefghijklmnop"
        let outcome = try CLIHarness.process(
            ["models", "retrieve", "--model", "gpt-4o", "--api-key", secret, "--debug"],
            environment: CLIHarness.environment(
                server, scenario: TestServer.scenario(), headers: ["x-testserver-fail-status": "401"]
            )
            .merging(["OPENAI_API_KEY": "sk-other"]) { _, new in new })
        XCTAssertEqual(outcome.status, 4)
        XCTAssertFalse(outcome.output.contains("SECRETcli"), outcome.output)
        XCTAssertFalse(outcome.error.contains("SECRETcli"), outcome.error)
        XCTAssertTrue(outcome.error.contains("Authorization"), "--debug logs the headers, redacted")
    }

    // MARK: Files, keys and words the review found

    private func folder(_ name: String = #function) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func testOutputFilesAreWrittenWholeOrNotAtAllAndWithoutColors() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("model.json")
        // On a terminal, auto is pretty with colors; the file gets plain JSON.
        let written = try await run(
            ["models", "retrieve", "--model", "gpt-4o", "--output", file.path], outputIsTerminal: true
        ).outcome
        XCTAssertEqual(written.status, 0, written.error)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("\u{1B}"), text)
        XCTAssertEqual(try json(text)["object"], .string("model"))
        // A failed request leaves the file as it was, and no temporary file beside it.
        try Data("old".utf8).write(to: file)
        for words in [
            ["models", "retrieve", "--model", "gpt-4o", "--output", file.path],
            ["files", "content", "--file-id", "file-abc", "--output", file.path],
        ] {
            let failed = try await run(words, headers: ["x-testserver-fail-status": "404"]).outcome
            XCTAssertEqual(failed.status, 4, failed.error)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "old", "\(words)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["model.json"])
        // A folder is refused, before anything is sent.
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let refused = try await run(["files", "content", "--file-id", "file-abc", "--output", sub.path])
        XCTAssertEqual(refused.outcome.status, 1, refused.outcome.error)
        XCTAssertTrue(refused.outcome.error.contains("is a folder"), refused.outcome.error)
        XCTAssertEqual(refused.records.count, 0)
        // `-` is standard output.
        let dash = try await run(["models", "retrieve", "--model", "gpt-4o", "--output", "-"]).outcome
        XCTAssertEqual(try json(dash.output)["object"], .string("model"))
    }

    func testFilesOfAMultipartBodyOnStandardInputAreUploadedAsFiles() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("train.jsonl")
        try Data("{\"messages\": []}\n".utf8).write(to: file)
        // Files named on standard input are read only under --allow-files (CLIHostileInputTests).
        let (outcome, records) = try await run(
            ["files", "create", "--allow-files", folder.path], stdin: "file: '@\(file.path)'\npurpose: fine-tune\n")
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let part = records.first?.raw["parts"]?.arrayValue?.first { $0["name"] == "file" }
        XCTAssertEqual(part?["filename"], "train.jsonl")
        XCTAssertEqual(part?["size"], .int(17))
        XCTAssertEqual(records.first?.validation, "ok")
    }

    func testValuesAreReadAsTheirShapesSay() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let metadata = folder.appendingPathComponent("metadata.yaml")
        try Data("team: cli\nrun: '7'\n".utf8).write(to: metadata)
        let (outcome, records) = try await run([
            "responses", "create", "--model", "gpt-4.1", "--input", "hi", "--metadata", "@" + metadata.path,
        ])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(records.first?.bodyJSON?["metadata"], .object(["team": "cli", "run": "7"]))
        // `+5` is a whole number, sent as JSON writes it.
        let limit = try await run(["files", "list", "--limit", "+5"])
        XCTAssertEqual(limit.outcome.status, 0, limit.outcome.error)
        XCTAssertEqual(limit.records.first?.query.first { $0.0 == "limit" }?.1, "5")
        // A bare path for a file flag is sent as text, with a note.
        let bare = try await run(["files", "create", "--file", metadata.path, "--purpose", "batch"]).outcome
        XCTAssertTrue(bare.error.contains("write @\(metadata.path) to upload the file"), bare.error)
    }

    func testWordsThatAreNotWhatTheyLookLikeAreRefused() async throws {
        let cases: [([String], String)] = [
            (["files", "list", "--purpose", "--limit", "3"], "--purpose needs a value"),
            (
                ["chat:completions", "create", "--model", "m", "--messages", "[]", "--logprobs", "yes"],
                "takes true or false"
            ),
            (
                ["models", "retrieve", "--model", "m", "--max-items", "3"],
                "neither pages, streams nor replies with a list"
            ),
            (["files", "list", "--transform", "data.#(id==\"x\")"], "is not supported"),
            (["files", "list", "--format", "raw", "--transform", "data"], "does not combine"),
            (["chat", "completions", "create"], "`openai chat:completions <method>`"),
        ]
        for (words, message) in cases {
            let (outcome, records) = try await run(words)
            XCTAssertEqual(outcome.status, 2, "\(words): \(outcome.error)")
            XCTAssertTrue(outcome.error.contains(message), "\(words): \(outcome.error)")
            XCTAssertEqual(records.count, 0)
        }
    }

    func testEachKindOfCommandSendsOnlyItsOwnKey() async throws {
        let admin = try await run(
            ["admin:organization:projects", "list"], environment: ["OPENAI_ADMIN_KEY": ""])
        XCTAssertEqual(admin.outcome.status, 2, admin.outcome.error)
        XCTAssertTrue(admin.outcome.error.contains("needs an admin key"), admin.outcome.error)
        XCTAssertEqual(admin.records.count, 0, "the project key is not sent to an admin endpoint")
        let project = try await run(["models", "list"], environment: ["OPENAI_API_KEY": ""])
        XCTAssertEqual(project.outcome.status, 2, project.outcome.error)
        XCTAssertTrue(project.outcome.error.contains("needs an API key"), project.outcome.error)
        XCTAssertEqual(project.records.count, 0, "the admin key is not sent to another endpoint")
    }

    func testAStreamAnsweredWithJSONIsPrintedAsAReply() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = folder.appendingPathComponent("hello.mp3")
        try Data(repeating: 1, count: 64).write(to: audio)
        let (outcome, _) = try await run([
            "audio:transcriptions", "create", "--file", "@" + audio.path, "--model", "gpt-4o-transcribe", "--stream",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertNotNil(try json(outcome.output)["text"], outcome.output)
    }
}
