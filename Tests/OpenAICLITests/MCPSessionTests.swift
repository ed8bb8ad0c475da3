import Foundation
import OpenAICLI
import XCTest

/// ``MCPSession`` message by message, per protocol revision, without pipes or a server: what each
/// message makes the server do (``MCPAction``).
final class MCPSessionTests: XCTestCase {
    private func session(
        maxConcurrentCalls: Int = 4, maxHeldArgumentBytes: Int = 1 << 20, maxResultBytes: Int = 1 << 20
    ) -> MCPSession {
        MCPSession(
            tools: MCPSession.Tools(
                definitions: { [.object([.init("name", .string("models_list"))])] },
                contains: { $0 == "models_list" || $0 == "models_retrieve" }),
            maxConcurrentCalls: maxConcurrentCalls, maxHeldArgumentBytes: maxHeldArgumentBytes,
            maxResultBytes: maxResultBytes, maxLineBytes: 1000)
    }

    /// The one message `actions` sends, parsed.
    private func sent(_ actions: [MCPAction], file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        XCTAssertEqual(actions.count, 1, "\(actions)", file: file, line: line)
        guard case .send(let message)? = actions.first else {
            XCTFail("not a message: \(actions)", file: file, line: line)
            throw CancellationError()
        }
        return message
    }

    private func errorCode(_ message: JSON) -> String? {
        guard case .number(let code)? = message["error"]?["code"] else { return nil }
        return code
    }

    /// The call `actions` starts.
    private func started(_ actions: [MCPAction], file: StaticString = #filePath, line: UInt = #line) throws -> MCPCall {
        guard actions.count == 1, case .start(let call)? = actions.first else {
            XCTFail("no call started: \(actions)", file: file, line: line)
            throw CancellationError()
        }
        return call
    }

    private static let modernMeta =
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    private static func call(id: Int, arguments: String = "{}", meta: String? = nil) -> String {
        let meta = meta.map { "," + $0 } ?? ""
        return
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"models_list","arguments":\#(arguments)\#(meta)}}"#
    }

    func testInitializeNegotiatesALegacyRevisionAndLaterRequestsAreServedInIt() throws {
        var session = session()
        let reply = try sent(
            session.receive(
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#))
        XCTAssertEqual(reply["id"], .number("1"))
        XCTAssertEqual(reply["result"]?["protocolVersion"], .string("2025-06-18"))
        XCTAssertEqual(reply["result"]?["serverInfo"]?["name"], .string("openai"))
        XCTAssertEqual(session.legacyVersion, "2025-06-18")
        // A legacy reply carries no 2026-07-28 members.
        let list = try sent(session.receive(#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#))
        XCTAssertEqual(list["id"], .string("a"))
        XCTAssertEqual(list["result"]?["tools"]?.array?.count, 1)
        XCTAssertNil(list["result"]?["ttlMs"])
        XCTAssertNil(list["result"]?["resultType"])
        // A version the server does not speak is answered with the newest legacy one.
        var other = self.session()
        let negotiated = try sent(
            other.receive(#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#))
        XCTAssertEqual(negotiated["result"]?["protocolVersion"], .string("2025-11-25"))
        XCTAssertEqual(try sent(other.receive(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#))["result"], .object([]))
    }

    func testA2026RequestCarriesItsVersionAndIsServedStatelessly() throws {
        var session = session()
        let list = try sent(
            session.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(Self.modernMeta)}}"#))
        XCTAssertEqual(list["result"]?["resultType"], .string("complete"))
        XCTAssertEqual(list["result"]?["ttlMs"], .number("3600000"))
        XCTAssertEqual(list["result"]?["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"], .string("openai"))
        XCTAssertNil(session.legacyVersion, "no session is opened")
        let discover = try sent(
            session.receive(#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{\#(Self.modernMeta)}}"#))
        XCTAssertEqual(
            discover["result"]?["supportedVersions"],
            .array(["2026-07-28", "2025-11-25", "2025-06-18"].map(JSON.string)))
        // server/discover without the envelope, the envelope without capabilities, another version.
        let bare = try sent(session.receive(#"{"jsonrpc":"2.0","id":3,"method":"server/discover"}"#))
        XCTAssertEqual(errorCode(bare), "-32602")
        let partial = try sent(
            session.receive(
                #"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#
            ))
        XCTAssertEqual(errorCode(partial), "-32602")
        let future = try sent(
            session.receive(
                #"{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#
            ))
        XCTAssertEqual(errorCode(future), "-32022")
        XCTAssertEqual(future["error"]?["data"]?["requested"], .string("2099-01-01"))
        XCTAssertEqual(future["error"]?["data"]?["supported"]?.array?.count, 3)
    }

    func testMalformedMessagesGetTheirJSONRPCErrorAndTheSessionGoesOn() throws {
        var session = session()
        let cases: [(line: String, code: String, id: JSON)] = [
            ("not json", "-32700", .null),
            (#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, "-32600", .null),
            (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, "-32600", .number("1")),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, "-32600", .null),
            (#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, "-32600", .null),
            (#"{"jsonrpc":"2.0","id":2}"#, "-32600", .number("2")),
            (#"{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}"#, "-32602", .number("3")),
            (#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#, "-32601", .number("4")),
            (#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"2"}}"#, "-32602", .number("5")),
            (#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}"#, "-32602", .number("6")),
            (#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}"#, "-32602", .number("7")),
            (
                #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"models_list","arguments":[]}}"#,
                "-32602",
                .number("8")
            ),
        ]
        for (line, code, id) in cases {
            let reply = try sent(session.receive(line))
            XCTAssertEqual(errorCode(reply), code, line)
            XCTAssertEqual(reply["id"], id, line)
            XCTAssertNotNil(reply["error"]?["message"]?.string, line)
        }
        // A response, a notification and an empty line are nothing to answer.
        XCTAssertEqual(session.receive(#"{"jsonrpc":"2.0","id":9,"result":{}}"#), [])
        XCTAssertEqual(session.receive(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), [])
        XCTAssertEqual(session.receive("   "), [])
        let tooLong = try sent(session.lineTooLong(5000))
        XCTAssertEqual(errorCode(tooLong), "-32600")
        XCTAssertEqual(tooLong["error"]?["message"]?.string?.contains("5000 bytes"), true)
        XCTAssertEqual(try sent(session.receive(#"{"jsonrpc":"2.0","id":10,"method":"ping"}"#))["result"], .object([]))
    }

    func testACallStartsAndItsResultIsAnsweredUnderItsRevision() throws {
        var session = session()
        let call = try started(session.receive(Self.call(id: 7, arguments: #"{"limit":2}"#)))
        XCTAssertEqual(call.key, "7")
        XCTAssertEqual(call.tool, "models_list")
        XCTAssertEqual(call.arguments["limit"], .number("2"))
        XCTAssertEqual(call.era, .legacy("2025-11-25"))
        XCTAssertEqual(session.callsInFlight, 1)
        let text: JSON = .object([
            .init("content", .array([.object([.init("type", .string("text")), .init("text", .string("ok"))])]))
        ])
        let reply = try sent(session.finish(call, with: .result(text)))
        XCTAssertEqual(reply["id"], .number("7"))
        XCTAssertEqual(reply["result"], text)
        XCTAssertEqual(session.callsInFlight, 0)
        // Under 2026-07-28 the result is marked complete.
        let modern = try started(session.receive(Self.call(id: 8, meta: Self.modernMeta)))
        XCTAssertEqual(modern.era, .modern)
        XCTAssertEqual(
            try sent(session.finish(modern, with: .result(text)))["result"]?["resultType"], .string("complete"))
        // A call that did not run (cancelled before its turn) gets no answer.
        let skipped = try started(session.receive(Self.call(id: 9)))
        XCTAssertEqual(session.finish(skipped, with: nil), [])
    }

    func testACancelledCallIsCancelledAndNeverAnsweredAndItsIdIsFreeAfterwards() throws {
        var session = session()
        let call = try started(session.receive(Self.call(id: 7)))
        // The token of a request not in flight is ignored.
        XCTAssertEqual(
            session.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}"#), [])
        XCTAssertEqual(
            session.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#),
            [.cancel(key: "7")])
        XCTAssertTrue(session.isCancelled("7"))
        XCTAssertEqual(session.finish(call, with: .result(.object([]))), [], "a cancelled request gets no response")
        XCTAssertFalse(session.isCancelled("7"))
        XCTAssertEqual(try started(session.receive(Self.call(id: 7))).key, "7")
    }

    func testArgumentsThatDoNotMatchAreAProtocolErrorOnlyUnder20250618() throws {
        let problems = ["/limit: expected an integer"]
        for (version, isProtocolError) in [("2025-06-18", true), ("2025-11-25", false)] {
            var session = session()
            _ = session.receive(
                #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"\#(version)"}}"#)
            let call = try started(session.receive(Self.call(id: 1)))
            let reply = try sent(session.finish(call, with: .invalidArguments(problems)))
            if isProtocolError {
                XCTAssertEqual(errorCode(reply), "-32602", version)
                XCTAssertEqual(
                    reply["error"]?["message"],
                    .string("Invalid params: The arguments do not match the tool's input schema:\n- " + problems[0]))
            } else {
                XCTAssertEqual(reply["result"]?["isError"], .bool(true), version)
                XCTAssertEqual(
                    reply["result"]?["content"]?.array?.first?["text"],
                    .string("The arguments do not match the tool's input schema:\n- " + problems[0]))
            }
        }
    }

    func testCallsInFlightAreBoundedAndAnIdInFlightIsNotTakenTwice() throws {
        var session = session(maxConcurrentCalls: 1, maxHeldArgumentBytes: 100)
        let large = #"{"q":""# + String(repeating: "x", count: 80) + #""}"#
        let first = try started(session.receive(Self.call(id: 1, arguments: large)))
        // The first call in flight is taken whatever its size; the next would pass the bytes held.
        let busy = try sent(session.receive(Self.call(id: 2, arguments: large)))
        XCTAssertEqual(errorCode(busy), "-32000")
        XCTAssertEqual(busy["id"], .number("2"))
        let again = try sent(session.receive(Self.call(id: 1)))
        XCTAssertEqual(errorCode(again), "-32600")
        XCTAssertEqual(again["id"], .null, "an answer with the id would reach the call in flight")
        _ = session.finish(first, with: .result(.object([])))
        XCTAssertEqual(try started(session.receive(Self.call(id: 2, arguments: large))).key, "2")
    }

    func testAResultOverTheBudgetBecomesAnErrorResult() throws {
        var session = session(maxResultBytes: 10)
        let call = try started(session.receive(Self.call(id: 1)))
        let text: JSON = .object([
            .init(
                "content",
                .array([
                    .object([.init("type", .string("text")), .init("text", .string(String(repeating: "y", count: 20)))])
                ]))
        ])
        let reply = try sent(session.finish(call, with: .result(text)))
        XCTAssertEqual(reply["result"]?["isError"], .bool(true))
        XCTAssertEqual(
            reply["result"]?["content"]?.array?.first?["text"]?.string?.hasPrefix("The result is 20 bytes"), true)
    }

    func testProgressNotificationsCarryTheTokenCountAndType() {
        let message = MCPSession.progress(token: .string("t"), count: 3, message: "response.output_text.delta")
        XCTAssertEqual(message["method"], .string("notifications/progress"))
        XCTAssertEqual(message["params"]?["progressToken"], .string("t"))
        XCTAssertEqual(message["params"]?["progress"], .number("3"))
        XCTAssertEqual(message["params"]?["message"], .string("response.output_text.delta"))
        XCTAssertNil(message["id"])
    }
}
