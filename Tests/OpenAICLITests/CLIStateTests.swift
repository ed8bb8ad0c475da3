@testable import OpenAIRuntime
import XCTest

@testable import OpenAICLI

/// The paging walk on the runtime's cursor rules, transition by transition (the stream rules: StreamSurfacesTests).
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

    private func fetched(_ value: JSON) -> JSONPage { JSONPage(reply: value, body: Data(), page: page) }

    func testPagesAreReadByTheRuntimesCursorRules() {
        // The cursor of a page: `last_id`, else the last item's id; `has_more` absent reads as "maybe".
        XCTAssertEqual(fetched(page(["a", "b"], hasMore: true)).nextPageCursor, "b")
        XCTAssertEqual(fetched(page(["a", "b"], hasMore: nil, lastID: false)).nextPageCursor, "b")
        XCTAssertTrue(fetched(page(["a"], hasMore: nil)).hasMorePages)
        XCTAssertFalse(fetched(page(["a"], hasMore: false)).hasMorePages)
        // The runtime's stop rules: a page that repeats the one before is not given, a cursor met
        // before ends the walk.
        XCTAssertTrue(
            CursorPages<JSONPage>.isRepeat(fetched(page(["a", "b"], hasMore: nil, lastID: false)), fetchedAfter: "b"))
        XCTAssertTrue(CursorPages<JSONPage>.isLast(fetched(page(["c"], hasMore: false)), fetchedAfter: "b"))
    }

    func testTheWalkMergesPagesToTheLast() {
        var walker = PageWalker(page: page, maxItems: nil)
        XCTAssertEqual(walker.take(fetched(page(["a", "b"], hasMore: true))).count, 2)
        XCTAssertEqual(walker.take(fetched(page(["c"], hasMore: false))).count, 1)
        XCTAssertEqual(walker.merged?["data"]?.array?.count, 3)
        XCTAssertEqual(walker.merged?["has_more"], .bool(false))
        XCTAssertEqual(walker.merged?["last_id"], .string("c"))
    }

    func testMaxItemsCutsAPageAndTheLastIDFollowsTheItems() {
        var walker = PageWalker(page: page, maxItems: 3)
        XCTAssertEqual(walker.take(fetched(page(["a", "b"], hasMore: true))).count, 2)
        XCTAssertFalse(walker.isFull)
        let items = walker.take(fetched(page(["c", "d"], hasMore: true)))
        XCTAssertEqual(items.count, 1)
        XCTAssertTrue(walker.isFull)
        XCTAssertEqual(walker.merged?["has_more"], .bool(true))
        XCTAssertEqual(walker.merged?["last_id"], .string("c"), "not the page's d: resuming after it would skip d")
    }
}
