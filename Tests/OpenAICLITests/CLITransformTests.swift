import OpenAICLI
import XCTest

final class CLITransformTests: XCTestCase {
    private func value(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func testPathsPickMembersElementsCountsAndMaps() throws {
        let reply = try value(#"{"object":"list","data":[{"id":"a","n":1},{"id":"b"},{"x":2}],"has.more":true}"#)
        XCTAssertEqual(try Transform("data.#.id").apply(reply), .array([.string("a"), .string("b")]))
        XCTAssertEqual(try Transform("data.#").apply(reply), .number("3"))
        XCTAssertEqual(try Transform("data.1.id").apply(reply), .string("b"))
        XCTAssertEqual(try Transform("data.0").apply(reply)?.compact, #"{"id":"a","n":1}"#)
        XCTAssertEqual(try Transform(#"has\.more"#).apply(reply), .bool(true))
        XCTAssertEqual(try Transform("obj*").apply(reply), .string("list"))
        XCTAssertEqual(try Transform("ob?ect").apply(reply), .string("list"))
        XCTAssertNil(try Transform("data.7").apply(reply))
        XCTAssertNil(try Transform("missing.id").apply(reply))
        XCTAssertThrowsError(try Transform("data..id"))
    }
}
