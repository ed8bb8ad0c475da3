import Foundation
import OpenAICLI
import OpenAISDKTestSupport
import XCTest

/// `openai mcp` driven by the official MCP Python SDK's client over stdio
/// (`Scripts/servers/mcp-client/mcp_client_check.py`), against the test server, which validates every
/// request the tools send.
final class MCPServerTests: XCTestCase {
    func testTheMCPClientDrivesTheServerAtEveryRevision() throws {
        let server = try TestServer.shared()
        let binary = try CLIHarness.binary()
        let root = SharedData.packageRoot
        let python =
            ProcessInfo.processInfo.environment["OPENAI_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent("Scripts/.venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Unavailable.skip("no Python at \(python): run Scripts/test.sh (it installs the mcp package)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            root.appendingPathComponent("Scripts/servers/mcp-client/mcp_client_check.py").path, "--binary", binary.path,
            "--root", server.rootURL.absoluteString, "--folder", folder.path,
        ]
        let output = Pipe()
        // A hung server fails the test instead of hanging the run.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 400, execute: watchdog)
        defer { watchdog.cancel() }
        let errorFile = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationStatus, 0, String(stderr.suffix(3000)))
        guard process.terminationStatus == 0 else { return }
        let report = try JSON.parse(data)

        // Each revision negotiated as asked, the tools listed and one called.
        for version in ["2025-06-18", "2025-11-25", "2026-07-28"] {
            let revision = report["revisions"]?[version]
            XCTAssertEqual(revision?["negotiated"], .string(version))
            XCTAssertEqual(revision?["tools"], .number("169"), version)
            XCTAssertEqual(revision?["call_ok"], .bool(true), version)
        }
        // The counts: 169 project-key operations, 288 with an admin key, the filters, the dynamic mode.
        let counts = report["counts"]
        XCTAssertEqual(counts?["default"], .number("169"))
        XCTAssertEqual(counts?["admin"], .number("288"))
        XCTAssertEqual(counts?["no-admin"], .number("169"))
        XCTAssertEqual(counts?["resource vector-stores*"], .number("16"))
        XCTAssertEqual(counts?["read-only"], .number("122"))
        XCTAssertEqual(counts?["operation"], .number("2"))
        XCTAssertEqual(counts?["dynamic"], .number("3"))
        // Every schema valid by the Draft 2020-12 meta-schema, none with a reference left.
        let schemas = report["schemas"]
        XCTAssertEqual(schemas?["tools"], .number("288"))
        XCTAssertEqual(schemas?["invalid"], .array([]))
        XCTAssertEqual(schemas?["with_refs"], .array([]))
        XCTAssertEqual(schemas?["names_ok"], .bool(true))
        XCTAssertEqual(schemas?["every_delete_destructive"], .bool(true))
        let destructive = schemas?["destructive_names"]?.array?.compactMap(\.string) ?? []
        XCTAssertTrue(destructive.contains("responses_cancel"), "cancelling ends something: destructive")
        XCTAssertTrue(destructive.contains("admin_organization_projects_archive"))
        XCTAssertFalse(destructive.contains("responses_create"))
        // A local file only under --allow-files; a data URL always.
        XCTAssertEqual(report["files"]?["outside_is_error"], .bool(true))
        XCTAssertTrue(report["files"]?["outside_text"]?.string?.contains("not readable outside") == true)
        XCTAssertEqual(report["files"]?["data_url_ok"], .bool(true))
        // Ten calls of different kinds, each request validated by the server.
        let calls = try XCTUnwrap(report["calls"])
        guard case .object(let results) = calls else { return XCTFail("no calls") }
        XCTAssertEqual(results.count, 10)
        for result in results { XCTAssertEqual(result.value["is_error"], .bool(false), result.key) }
        XCTAssertEqual(calls["chat_completions_create"]?["collected_content"], .string("Hello"))
        XCTAssertEqual(calls["chat_completions_create"]?["object"], .string("chat.completion"))
        // Progress is paced (at most 10 a second): the three events arrive at once, so the first goes
        // out and the last one held back goes before the result, with the final count.
        XCTAssertEqual(calls["chat_completions_create"]?["progress"], .number("2"), "paced progress notifications")
        XCTAssertEqual(calls["chat_completions_create"]?["progress_last"], .number("3.0"), "the final count")
        XCTAssertEqual(calls["audio_speech_create"]?["blob_bytes"], .number("1024"), "the binary reply as a resource")
        let received = report["calls_received"]
        XCTAssertEqual(
            received?["count"], .number("11"), "ten calls and the upload of a data URL; nothing for the refused path")
        XCTAssertEqual(received?["all_validated"], .bool(true))
        XCTAssertTrue(
            received?["upload_parts"]?.array?.contains {
                $0["name"] == .string("file") && $0["filename"] == .string("train.jsonl") && $0["size"] == .number("17")
            } == true)
        XCTAssertEqual(received?["admin_authorization"], .array([.string("Bearer sk-admin-mcp-0123456789")]))
        // One page and its cursor.
        let paging = report["paging"]
        XCTAssertEqual(paging?["first_ids"], .array([.string("item_1"), .string("item_2")]))
        XCTAssertEqual(paging?["second_ids"], .array([.string("item_3"), .string("item_4")]))
        XCTAssertEqual(paging?["first_note"]?.array?.first?.string?.contains("\"item_2\""), true)
        // An API error and arguments that do not fit, as tool errors; only the valid call was sent.
        let errors = report["errors"]
        XCTAssertEqual(errors?["api_is_error"], .bool(true))
        XCTAssertTrue(errors?["api_text"]?.string?.contains("status: 404") == true)
        XCTAssertTrue(errors?["api_text"]?.string?.contains("request id: req_") == true)
        XCTAssertEqual(errors?["invalid_is_error"], .bool(true))
        XCTAssertEqual(errors?["requests"], .number("1"))
        // The dynamic mode end to end.
        let dynamic = report["dynamic"]
        XCTAssertEqual(dynamic?["found_vector_stores_create"], .bool(true))
        XCTAssertEqual(dynamic?["schema_valid"], .bool(true))
        XCTAssertEqual(dynamic?["invoked_ok"], .bool(true))
        XCTAssertEqual(dynamic?["invoked_by_alias_ok"], .bool(true), "`endpoint` is still read for `endpoint_name`")
        XCTAssertEqual(dynamic?["found_by_alias"], dynamic?["found"], "`search` is still read for `search_query`")
        XCTAssertEqual(dynamic?["refused_is_error"], .bool(true))
        XCTAssertEqual(
            dynamic?["received"], .array([.string("createVectorStore"), .string("createVectorStore")]),
            "the refused call sent nothing")
        XCTAssertEqual(dynamic?["validated"], .bool(true))
        // Malformed messages get the protocol's errors, and the server goes on.
        let malformed = report["malformed"]
        XCTAssertEqual(
            malformed?["null_ids"]?.array?.compactMap(\.compactNumber).sorted(), [-32700, -32600, -32600].sorted())
        XCTAssertEqual(malformed?["codes"]?["1"], .number("-32600"))
        XCTAssertEqual(malformed?["codes"]?["2"], .number("-32601"))
        XCTAssertEqual(malformed?["codes"]?["3"], .number("-32602"))
        XCTAssertEqual(malformed?["codes"]?["4"], .number("-32602"), "tools/call without a name")
        XCTAssertEqual(malformed?["codes"]?["5"], .number("-32022"))
        XCTAssertEqual(malformed?["unsupported_data"]?["requested"], .string("1900-01-01"))
        XCTAssertEqual(
            malformed?["unsupported_data"]?["supported"],
            .array([.string("2026-07-28"), .string("2025-11-25"), .string("2025-06-18")]))
        XCTAssertEqual(malformed?["ping_after"], .bool(true))
        // A cancelled call: no response, and the HTTP request dropped.
        let cancellation = report["cancellation"]
        XCTAssertEqual(cancellation?["reply_ids"], .array([.number("8")]), "the ping's, none for the cancelled call")
        XCTAssertEqual(cancellation?["disconnected"], .array([.bool(true)]))
        // The sizes, for the record (the closing note and CLI.md quote them).
        XCTAssertEqual(report["sizes"]?["dynamic"]?["tools"], .number("3"))
        print("mcp sizes: \(report["sizes"]?.compact ?? "")")
    }
}

extension JSON {
    /// A number's value as an integer.
    fileprivate var compactNumber: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}
