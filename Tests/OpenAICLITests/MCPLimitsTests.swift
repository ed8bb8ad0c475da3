import Foundation
import OpenAICLI
import OpenAIRuntime
import XCTest

/// `openai mcp` under a burst of calls, a reused id and a chatty stream (issue 42): calls in flight
/// are bounded, an id in flight is not taken twice, progress is paced.
final class MCPLimitsTests: XCTestCase {
    /// A transport that holds every request `delay` seconds and counts how many it holds at once.
    private final class SlowTransport: HTTPTransport, Sendable {
        /// Requests held now, the most held at once, and all sent.
        private let held = Locked((current: 0, peak: 0, total: 0))
        let delay: UInt64

        init(delay: TimeInterval) { self.delay = UInt64(delay * 1e9) }

        var counts: (peak: Int, total: Int) { held.withLock { ($0.peak, $0.total) } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            held.withLock { held in
                held.current += 1
                held.total += 1
                held.peak = max(held.peak, held.current)
            }
            defer { held.withLock { $0.current -= 1 } }
            try await Task.sleep(nanoseconds: delay)
            let body = #"{"id":"gpt-4o","object":"model","created":1,"owned_by":"openai"}"#
            return HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    private func server(_ transport: SlowTransport, maxConcurrentCalls: Int? = nil) throws -> (MCPServer, Terminal) {
        var options = try MCPOptions.parse(
            maxConcurrentCalls.map { ["--max-concurrent-calls", String($0)] } ?? [])
        options.globals.apiKey = "sk-test-mcp-limits-0123"
        let output = Terminal.capturing()
        let server = try MCPServer(
            options: options, environment: ["OPENAI_API_KEY": "sk-test-mcp-limits-0123"], output: output,
            transport: transport)
        return (server, output)
    }

    private static func call(id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"models_retrieve","arguments":{"model":"gpt-4o"}}}"#
    }

    /// The responses written so far, by id.
    private static func responses(_ output: Terminal) -> [(id: String, message: [String: Any])] {
        output.capturedText.output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"]
            else { return nil }
            return ("\(id)", object)
        }
    }

    private func waitFor(_ count: Int, in output: Terminal, seconds: TimeInterval = 20) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Self.responses(output).count < count, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    func testABurstOfCallsRunsAtMostTheBoundAtOnceAndEveryOneIsAnswered() async throws {
        let transport = SlowTransport(delay: 0.15)
        let (server, output) = try server(transport, maxConcurrentCalls: 3)
        for id in 1...12 { server.handle(Self.call(id: id)) }
        try await waitFor(12, in: output)
        let responses = Self.responses(output)
        XCTAssertEqual(Set(responses.map(\.id)), Set((1...12).map(String.init)), output.capturedText.output)
        XCTAssertTrue(responses.allSatisfy { $0.message["result"] != nil }, output.capturedText.output)
        XCTAssertEqual(transport.counts.total, 12)
        XCTAssertLessThanOrEqual(transport.counts.peak, 3, "never more than --max-concurrent-calls at once")
        XCTAssertEqual(transport.counts.peak, 3, "but the bound is used")
        // The default bound is 16.
        XCTAssertEqual(try MCPOptions.parse([]).maxConcurrentCalls, 16)
        for bad in ["0", "257", "x"] {
            XCTAssertThrowsError(try MCPOptions.parse(["--max-concurrent-calls", bad]), bad)
        }
    }

    func testWaitingCallsAreBoundedByTheBytesOfTheirArgumentsToo() async throws {
        // Lines of at most 64 KiB: the calls in flight hold at most 256 KiB of arguments together.
        let transport = SlowTransport(delay: 0.3)
        var options = try MCPOptions.parse(["--max-line-bytes", "65536", "--max-concurrent-calls", "1"])
        options.globals.apiKey = "sk-test-mcp-limits-0123"
        let output = Terminal.capturing()
        let server = try MCPServer(
            options: options, environment: ["OPENAI_API_KEY": "sk-test-mcp-limits-0123"], output: output,
            transport: transport)
        XCTAssertEqual(server.maxHeldArgumentBytes, 262_144)
        let model = String(repeating: "m", count: 60_000)
        for id in 1...5 {
            server.handle(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"models_retrieve","arguments":{"model":"\#(model)"}}}"#
            )
        }
        try await waitFor(5, in: output)
        let all = Self.responses(output)
        let refused = try XCTUnwrap(all.first { $0.id == "5" }, output.capturedText.output)
        let error = try XCTUnwrap(refused.message["error"] as? [String: Any], "\(refused.message)")
        XCTAssertEqual(error["code"] as? Int, -32000)
        XCTAssertTrue((error["message"] as? String)?.contains("262144 bytes of arguments") == true, "\(error)")
        XCTAssertEqual(Set(all.filter { $0.message["result"] != nil }.map(\.id)), ["1", "2", "3", "4"])
        XCTAssertEqual(transport.counts.total, 4, "the refused call was not sent")
    }

    func testAnIdStillInFlightIsRefusedAndTheFirstCallStillAnswers() async throws {
        let transport = SlowTransport(delay: 0.3)
        let (server, output) = try server(transport)
        server.handle(Self.call(id: 7))
        server.handle(Self.call(id: 7))
        try await waitFor(2, in: output)
        let all = Self.responses(output)
        XCTAssertEqual(all.count, 2, output.capturedText.output)
        // The refusal has id null, so that it cannot be taken for the answer to the call still running.
        let error = try XCTUnwrap(all.first?.message["error"] as? [String: Any], output.capturedText.output)
        XCTAssertTrue(all.first?.message["id"] is NSNull, output.capturedText.output)
        XCTAssertEqual(error["code"] as? Int, -32600)
        XCTAssertTrue((error["message"] as? String)?.contains("the id 7 belongs to a request still in flight") == true)
        XCTAssertEqual(all.last?.id, "7")
        XCTAssertNotNil(all.last?.message["result"], "the first call is answered")
        XCTAssertEqual(transport.counts.total, 1, "the second was not sent")
        // Once it is over, the id may be used again.
        server.handle(Self.call(id: 7))
        try await waitFor(3, in: output)
        XCTAssertNotNil(Self.responses(output).last?.message["result"])
    }

    func testALineOverTheLimitIsDroppedAsItArrivesAndReported() {
        var splitter = LineSplitter(maxLineBytes: 10)
        var lines = splitter.feed(Data("short\r\n0123456789".utf8))
        lines += splitter.feed(Data("ABCDEF".utf8))  // 16 bytes: over the limit, dropped while it arrives
        lines += splitter.feed(Data("GHIJ\nnext\n".utf8))
        lines += splitter.feed(Data("tail".utf8))
        lines += splitter.finish()
        XCTAssertEqual(lines, [.text("short"), .tooLong(bytes: 20), .text("next"), .text("tail")])
        // Exactly the limit is read.
        var exact = LineSplitter(maxLineBytes: 4)
        XCTAssertEqual(exact.feed(Data("abcd\nabcde\n".utf8)), [.text("abcd"), .tooLong(bytes: 5)])
        XCTAssertEqual(try MCPOptions.parse([]).maxLineBytes, 16 << 20)
        XCTAssertEqual(try MCPOptions.parse(["--max-line-bytes", "4096"]).maxLineBytes, 4096)
        XCTAssertThrowsError(try MCPOptions.parse(["--max-line-bytes", "10"]))
    }

    /// The built `openai mcp` fed a 64 MB line: answered with an error, the next message served,
    /// and the process's peak memory far below the line (it held 30 times the line before).
    func testA64MBLineCostsTheServerNoMoreThanItsLimit() throws {
        let binary = try CLIHarness.binary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-line-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input")
        var bytes = Data("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"pad\":\"".utf8)
        bytes.append(Data(repeating: 0x61, count: 64 << 20))
        bytes.append(Data("\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".utf8))
        try bytes.write(to: input)
        bytes = Data()
        // A Python parent whose only child is the server: its children's peak RSS is the server's.
        let script = """
            import resource, subprocess, sys
            with open(sys.argv[2], "rb") as stdin:
                out = subprocess.run([sys.argv[1], "mcp"], stdin=stdin, capture_output=True,
                                     env={"OPENAI_API_KEY": "sk-test-line-0123"}).stdout
            sys.stdout.write(out.decode())
            print("PEAK_KB", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, binary.path, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(text.contains("a line of \(64 << 20) bytes") || text.contains("more than the 16777216"), text)
        XCTAssertTrue(
            text.contains(#""id":1,"result":{}"#) || text.contains(#""id":1,"jsonrpc":"2.0","result":{}"#), text)
        let peak = try XCTUnwrap(
            text.split(separator: "\n").last { $0.hasPrefix("PEAK_KB") }.flatMap { Int($0.split(separator: " ")[1]) })
        print("MCP 64 MB line: server peak RSS \(peak / 1024) MB")
        XCTAssertLessThan(peak, 160 * 1024, "peak RSS \(peak) KB for a 64 MB line")
    }

    func testProgressIsPacedToTenASecond() {
        let pace = ProgressPace(interval: 0.1)
        let start = Date()
        XCTAssertTrue(pace.allows(now: start))
        XCTAssertFalse(pace.allows(now: start.addingTimeInterval(0.05)))
        XCTAssertFalse(pace.allows(now: start.addingTimeInterval(0.099)))
        XCTAssertTrue(pace.allows(now: start.addingTimeInterval(0.1)))
        // 10,000 events within one second let at most 11 through.
        let burst = ProgressPace(interval: 0.1)
        let sent = (0..<10_000).filter { burst.allows(now: start.addingTimeInterval(Double($0) / 10_000)) }.count
        XCTAssertEqual(sent, 10)
    }
}
