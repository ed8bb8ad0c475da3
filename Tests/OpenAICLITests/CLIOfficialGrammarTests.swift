import Foundation
import OpenAIRuntime
import OpenAISDKTestSupport
import XCTest

@testable import OpenAICLI

/// The official CLI's grammar beyond one flag per top-level member (issue 42, item 8): singular
/// repeatable flags of plural arrays, dotted flags at any depth, `--max-items` on streams and list
/// replies, `--beta`. Each case is a command line in the form openai-cli's own test suite writes
/// them; `Scripts/check/official-cli-suite.py` runs that whole suite.
final class CLIOfficialGrammarTests: XCTestCase {
    /// The body and query `words` give, read as the tool reads them (no request is sent).
    private func input(_ words: [String], stdin: String? = nil) throws -> RequestInput {
        guard case .call(let call) = try Invocation.parse(words, catalogue: .shared) else {
            throw CLIError.failure("not a call: \(words)")
        }
        return try RequestInput(
            operation: call.operation, values: call.values, nested: call.nested, stdinBody: stdin)
    }

    private func body(_ words: [String], stdin: String? = nil) throws -> String {
        let read = try input(words, stdin: stdin)
        return try XCTUnwrap(read.body?.compact)
    }

    func testSingularFlagsAppendOneItemOrAnArrayOfItems() throws {
        XCTAssertEqual(Flag.singular(of: "tools"), "tool")
        XCTAssertEqual(Flag.singular(of: "file-ids"), "file-id")
        XCTAssertEqual(Flag.singular(of: "geographies"), "geography")
        XCTAssertEqual(Flag.singular(of: "sizes"), "size")
        XCTAssertEqual(Flag.singular(of: "statuses"), "status")
        XCTAssertNil(Flag.singular(of: "include"))
        XCTAssertNil(Flag.singular(of: "status"))

        let tools = try body([
            "responses", "create", "--model", "m", "--tools", "[{type: web_search}]",
            "--tool", "{type: function, name: f, parameters: {type: object}}",
            "--tool", "[{type: code_interpreter, container: auto}]",
        ])
        XCTAssertEqual(
            tools,
            #"{"model":"m","tools":[{"type":"web_search"},{"type":"function","name":"f","parameters":{"type":"object"}},"#
                + #"{"type":"code_interpreter","container":"auto"}]}"#)
        // A query array by its singular, and an enum array's items still checked.
        let ids = try input([
            "admin:organization:usage", "completions", "--start-time", "1", "--api-key-id", "a", "--api-key-id", "b",
        ])
        XCTAssertEqual(
            ids.query.first { $0.name == "api_key_ids" }?.value, .array([.string("a"), .string("b")]), "\(ids.query)")
        XCTAssertThrowsError(
            try body(["chat:completions", "create", "--model", "m", "--messages", "[]", "--modality", "video"])
        ) { error in
            XCTAssertTrue("\(error)".contains("is not one of text, audio"), "\(error)")
        }
        // A singular that would shadow another flag of the command is not made (`--language` of
        // `languages` beside `language`).
        let transcription = try XCTUnwrap(
            Catalogue.shared.operation(resource: "audio:transcriptions", method: "create"))
        XCTAssertNil(transcription.flags.first { $0.name == "languages" }?.singular)
        // Help names the singular.
        let help = Help.command(try XCTUnwrap(Catalogue.shared.operation(resource: "responses", method: "create")))
        XCTAssertTrue(help.contains("--tools JSON…  (body, or --tool for one item, repeatable)"), help)
    }

    func testDottedFlagsSetMembersAtAnyDepthMergedWithTheParent() throws {
        // Merged into the parent's value given by its flag, whatever the order.
        XCTAssertEqual(
            try body([
                "responses", "create", "--model", "m", "--reasoning.summary", "auto", "--reasoning", "{effort: low}",
            ]),
            #"{"model":"m","reasoning":{"effort":"low","summary":"auto"}}"#)
        // …and into the body on standard input; two levels down; typed by the member's schema.
        XCTAssertEqual(
            try body(
                [
                    "beta:assistants", "update", "--assistant-id", "asst_1",
                    "--tool-resources.code-interpreter.file-ids", "f2",
                ],
                stdin: "name: A\ntool_resources: {code_interpreter: {file_ids: [f1]}}\n"),
            #"{"name":"A","tool_resources":{"code_interpreter":{"file_ids":["f1","f2"]}}}"#)
        XCTAssertEqual(
            try body(["responses", "create", "--model", "m", "--max-output-tokens", "16", "--prompt.version", "2"]),
            #"{"model":"m","max_output_tokens":16,"prompt":{"version":"2"}}"#, "a string member stays a string")
        // Through an array of objects: the last object takes a member it lacks, else a new one starts.
        XCTAssertEqual(
            try body([
                "chat:completions", "create", "--model", "m", "--message.role", "user", "--message.content", "Hi",
                "--message.role", "assistant", "--message.content", "Yo",
            ]),
            #"{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Yo"}]}"#)
        // A boolean member alone means true; a query object's member goes as `name[member]`.
        XCTAssertEqual(
            try body(["responses", "create", "--model", "m", "--stream", "--stream-options.include-obfuscation"]),
            #"{"model":"m","stream":true,"stream_options":{"include_obfuscation":true}}"#)
        let audit = try input([
            "admin:organization:audit-logs", "list", "--effective-at.gt", "5", "--effective-at.lte", "9",
        ])
        XCTAssertEqual(audit.query.first?.name, "effective_at")
        XCTAssertEqual(audit.query.first?.value.compact, #"{"gt":5,"lte":9}"#)
    }

    func testDottedFlagsThatNameNothingAreRefusedWithTheMembersThereAre() throws {
        XCTAssertThrowsError(try body(["responses", "create", "--model", "m", "--reasoning.efort", "low"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("unknown flag --reasoning.efort"), text)
            XCTAssertTrue(text.contains("did you mean `--reasoning.effort`?"), text)
            XCTAssertTrue(text.contains("--reasoning has --reasoning."), text)
        }
        XCTAssertThrowsError(try body(["responses", "create", "--model", "m", "--reasoning.effort", "huge"])) { error in
            XCTAssertTrue("\(error)".contains("is not one of"), "\(error)")
        }
        XCTAssertThrowsError(
            try body(["responses", "create", "--model", "m", "--reasoning.effort", "low"], stdin: "reasoning: low\n")
        ) { error in
            XCTAssertTrue("\(error)".contains("the value it goes into is not an object"), "\(error)")
        }
    }

    func testBetaAndMaxItemsAgainstTheTestServer() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario(#function)
        let environment = CLIHarness.environment(server, scenario: scenario)
        // `--beta` is the OpenAI-Beta header, a repeated one comma-separated (OpenAPI's simple style).
        let beta = await CLIHarness.run(
            [
                "beta:responses", "create", "--model", "gpt-4o", "--input", "Hi", "--beta", "responses_multi_agent=v1",
                "--beta", "responses_multi_agent=v1",
            ], environment: environment)
        // `--max-items` on a stream stops after N events and exits 0; on a list reply it cuts `data`.
        let stream = await CLIHarness.run(
            [
                "chat:completions", "create", "--model", "gpt-4o", "--message", "{role: user, content: Hi}", "--stream",
                "--max-items", "2", "--format", "jsonl",
            ], environment: environment)
        let models = await CLIHarness.run(
            ["models", "list", "--max-items", "1", "--format", "json"], environment: environment)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(beta.status, 0, beta.error)
        XCTAssertEqual(records.first?.headers["openai-beta"], "responses_multi_agent=v1,responses_multi_agent=v1")
        XCTAssertEqual(records.first?.validation, "ok")
        XCTAssertEqual(stream.status, 0, stream.error)
        XCTAssertEqual(stream.output.split(separator: "\n").count, 2, stream.output)
        XCTAssertEqual(models.status, 0, models.error)
        let list = try JSONValue(parsing: Data(models.output.utf8))
        XCTAssertEqual(list["data"]?.arrayValue?.count, 1, models.output)
        // A command that neither pages, streams nor replies with a list refuses it.
        let refused = await CLIHarness.run(
            ["files", "retrieve", "--file-id", "file-1", "--max-items", "1"], environment: environment)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.error.contains("neither pages, streams nor replies with a list"), refused.error)
    }

    /// Command lines in the official suite's forms, one per class of difference it had with this
    /// tool, each validated by the test server against the spec.
    func testCommandLinesInTheOfficialSuitesFormsPassTheSpecValidatingServer() async throws {
        let server = try TestServer.shared()
        let lines: [[String]] = [
            ["containers", "create", "--name", "c", "--file-id", "file-1", "--file-id", "file-2"],
            [
                "vector-stores", "create", "--name", "v", "--expires-after.anchor", "last_active_at",
                "--expires-after.days", "7",
            ],
            [
                "beta:threads:messages", "create", "--thread-id", "t", "--role", "user", "--content", "Hi",
                "--attachment.file-id", "file-1",
            ],
            [
                "beta:assistants", "create", "--model", "gpt-4o", "--tool", "{type: code_interpreter}",
                "--tool-resources.code-interpreter.file-ids", "[file-1]",
            ],
            [
                "fine-tuning:jobs", "create", "--model", "gpt-4o-mini", "--training-file", "file-1",
                "--hyperparameters.n-epochs", "3",
            ],
            ["conversations", "create", "--item", "{type: message, role: user, content: Hi}"],
            ["uploads", "complete", "--upload-id", "u", "--part-id", "p1", "--part-id", "p2"],
            [
                "admin:organization:invites", "create", "--email", "a@example.com", "--role", "reader",
                "--project.id", "proj_1", "--project.role", "member",
            ],
            [
                "vector-stores", "search", "--vector-store-id", "vs", "--query", "q", "--max-items", "10",
                "--ranking-options.ranker", "auto",
            ],
            ["images", "generate", "--prompt", "a cat", "--max-items", "10"],
        ]
        for line in lines {
            let scenario = TestServer.scenario(#function + line.prefix(2).joined(separator: "-"))
            let outcome = await CLIHarness.run(
                line + ["--admin-api-key", "sk-admin-test-0123456789"],
                environment: CLIHarness.environment(server, scenario: scenario))
            XCTAssertEqual(outcome.status, 0, "\(line.joined(separator: " ")): \(outcome.error)")
            let record = try await server.requests(scenario: scenario).first
            XCTAssertEqual(
                record?.validation, "ok", "\(line.joined(separator: " ")): \(record?.validationErrors ?? [])")
        }
    }
}
