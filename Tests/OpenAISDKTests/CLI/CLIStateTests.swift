import OpenAIRuntime
import XCTest

@testable import OpenAICLI

/// The paging walk and the stream-ending rules, transition by transition.
final class CLIStateTests: XCTestCase {
    private let page = APIOperation.Page(
        cursor: "after", items: "data", hasMore: "has_more", next: ["last_id", "#last-id"])

    private func page(_ ids: [String], hasMore: Bool?, lastID: Bool = true) -> JSON {
        var members = [
            JSON.Member("object", .string("list")),
            JSON.Member("data", .array(ids.map { .object([.init("id", .string($0))]) })),
        ]
        if lastID { members.append(JSON.Member("last_id", ids.last.map(JSON.string) ?? .null)) }
        if let hasMore { members.append(JSON.Member("has_more", .bool(hasMore))) }
        return .object(members)
    }

    func testPagesAreFollowedToTheLast() {
        var walker = PageWalker(page: page, maxItems: nil)
        XCTAssertEqual(walker.take(page(["a", "b"], hasMore: true), cursor: nil).next, "b")
        XCTAssertEqual(walker.take(page(["c"], hasMore: false), cursor: "b").next, nil)
        XCTAssertEqual(walker.merged?["data"]?.array?.count, 3)
        XCTAssertEqual(walker.merged?["has_more"], .bool(false))
        XCTAssertEqual(walker.merged?["last_id"], .string("c"))
    }

    func testMaxItemsCutsAPageAndTheLastIDFollowsTheItems() {
        var walker = PageWalker(page: page, maxItems: 3)
        XCTAssertEqual(walker.take(page(["a", "b"], hasMore: true), cursor: nil).next, "b")
        let step = walker.take(page(["c", "d"], hasMore: true), cursor: "b")
        XCTAssertEqual(step.items.count, 1)
        XCTAssertNil(step.next)
        XCTAssertEqual(walker.merged?["has_more"], .bool(true))
        XCTAssertEqual(walker.merged?["last_id"], .string("c"), "not the page's d: resuming after it would skip d")
    }

    func testAServerThatIgnoresTheCursorStopsTheWalk() {
        var walker = PageWalker(page: page, maxItems: nil)
        XCTAssertEqual(walker.take(page(["a", "b"], hasMore: nil, lastID: false), cursor: nil).next, "b")
        let again = walker.take(page(["a", "b"], hasMore: nil, lastID: false), cursor: "b")
        XCTAssertEqual(again.items.count, 0, "the repeated page adds nothing")
        XCTAssertNil(again.next)
        XCTAssertEqual(walker.merged?["data"]?.array?.count, 2)
        XCTAssertNil(walker.merged?["has_more"], "the server sent none")
    }

    private func stream(terminal: [String] = [], choices: Bool = false, named: Bool = false) -> APIOperation.Stream {
        APIOperation.Stream(
            namedEvents: named, bodySettings: [], query: nil, terminalEvents: terminal, finishedChoices: choices)
    }

    func testStreamEndings() throws {
        var responses = StreamTracker(stream: stream(terminal: ["response.completed"]))
        _ = try responses.take(ServerSentEvent(data: #"{"type":"response.created"}"#), requestID: nil)
        XCTAssertFalse(responses.complete(midEvent: false))
        _ = try responses.take(ServerSentEvent(data: #"{"type":"response.completed"}"#), requestID: nil)
        XCTAssertTrue(responses.complete(midEvent: false))

        var chat = StreamTracker(stream: stream(choices: true))
        _ = try chat.take(ServerSentEvent(data: #"{"choices":[{"index":0,"finish_reason":null}]}"#), requestID: nil)
        XCTAssertFalse(chat.complete(midEvent: false))
        _ = try chat.take(ServerSentEvent(data: #"{"choices":[{"index":0,"finish_reason":"stop"}]}"#), requestID: nil)
        XCTAssertTrue(chat.complete(midEvent: false))
        XCTAssertNil(try chat.take(ServerSentEvent(data: "[DONE]"), requestID: nil))

        var plain = StreamTracker(stream: stream())
        XCTAssertTrue(plain.complete(midEvent: false))
        XCTAssertFalse(plain.complete(midEvent: true))
        XCTAssertThrowsError(
            try plain.take(ServerSentEvent(event: "error", data: #"{"error":{"message":"boom"}}"#), requestID: "req_1"))
        XCTAssertEqual(StreamTracker.count(1), "1 event")
    }
}
