import Foundation
import OpenAIRuntime
import OpenAISDKTestSupport
import XCTest

/// The WHATWG HTML 9.2.5/9.2.6 event-stream rules, one transition at a time, each on a tiny input
/// checked one-shot, byte by byte and split at every offset.
final class SSEParserTests: XCTestCase {
    private func assertEvents(
        _ text: String,
        _ expected: [ServerSentEvent],
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        SSETestSupport.assertEverySplit(Array(text.utf8), give: expected, file: file, line: line)
    }

    // MARK: data

    func testDataLineDispatchesOnBlankLine() {
        assertEvents("data: hello\n\n", [ServerSentEvent(data: "hello")])
    }

    func testNothingIsDispatchedWithoutBlankLine() {
        assertEvents("data: hello\n", [])
        assertEvents("data: hello", [])
    }

    func testSeveralDataLinesAreJoinedWithLineFeed() {
        assertEvents("data: a\ndata: b\ndata: c\n\n", [ServerSentEvent(data: "a\nb\nc")])
    }

    func testOnlyOneTrailingLineFeedIsRemoved() {
        assertEvents("data: a\ndata:\n\n", [ServerSentEvent(data: "a\n")])
        assertEvents("data\ndata\n\n", [ServerSentEvent(data: "\n")])
    }

    func testValueWithoutSpaceAfterColon() {
        assertEvents("data:hello\n\n", [ServerSentEvent(data: "hello")])
    }

    func testOnlyOneLeadingSpaceIsRemoved() {
        assertEvents("data:  two spaces \n\n", [ServerSentEvent(data: " two spaces ")])
        assertEvents("data:\ttab\n\n", [ServerSentEvent(data: "\ttab")])
    }

    func testValueIsSplitAtFirstColonOnly() {
        assertEvents("data: a:b: c\n\n", [ServerSentEvent(data: "a:b: c")])
    }

    func testLineWithoutColonIsFieldWithEmptyValue() {
        // The data buffer is "\n", not empty, so an event with empty data is dispatched.
        assertEvents("data\n\n", [ServerSentEvent(data: "")])
        assertEvents("data:\n\n", [ServerSentEvent(data: "")])
    }

    func testDataMayContainNull() {
        assertEvents("data: a\u{0}b\n\n", [ServerSentEvent(data: "a\u{0}b")])
    }

    // MARK: event

    func testEventFieldSetsTypeAndIsResetAfterDispatch() {
        assertEvents(
            "event: add\ndata: 1\n\ndata: 2\n\n",
            [ServerSentEvent(event: "add", data: "1"), ServerSentEvent(data: "2")]
        )
    }

    func testRepeatedAndAlternatingEventTypes() {
        assertEvents(
            "event: a\ndata: 1\n\nevent: a\ndata: 2\n\nevent: b\ndata: 3\n\nevent:\ndata: 4\n\nevent: a\ndata: 5\n\n",
            [
                ServerSentEvent(event: "a", data: "1"),
                ServerSentEvent(event: "a", data: "2"),
                ServerSentEvent(event: "b", data: "3"),
                ServerSentEvent(data: "4"),
                ServerSentEvent(event: "a", data: "5"),
            ]
        )
    }

    func testLastEventLineOfBlockWins() {
        assertEvents("event: a\nevent: b\ndata: x\n\n", [ServerSentEvent(event: "b", data: "x")])
    }

    func testEmptyEventFieldMeansNoType() {
        assertEvents("event:\ndata: x\n\n", [ServerSentEvent(data: "x")])
    }

    func testEventWithoutDataDispatchesNothingAndResetsType() {
        assertEvents("event: ping\n\ndata: x\n\n", [ServerSentEvent(data: "x")])
    }

    // MARK: comments and unknown fields

    func testCommentLinesAreIgnored() {
        assertEvents(": hello\ndata: x\n: bye\n\n", [ServerSentEvent(data: "x")])
        assertEvents(":\n\n", [])
        assertEvents(":data: x\n\n", [])
    }

    func testUnknownFieldsAreIgnored() {
        assertEvents("foo: bar\ndata: x\nbaz\n\n", [ServerSentEvent(data: "x")])
    }

    func testFieldNamesAreCaseSensitive() {
        assertEvents("Data: x\nEVENT: y\n\n", [])
    }

    func testSpaceBeforeColonIsPartOfFieldName() {
        assertEvents("data : x\n\n", [])
    }

    // MARK: id

    func testIDPersistsAcrossEvents() {
        assertEvents(
            "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n",
            [
                ServerSentEvent(data: "a", id: "1"),
                ServerSentEvent(data: "b", id: "1"),
                ServerSentEvent(data: "c", id: "2"),
            ]
        )
    }

    func testIDSetInBlockWithoutDataStillPersists() {
        assertEvents("id: 7\n\ndata: a\n\n", [ServerSentEvent(data: "a", id: "7")])
    }

    func testEmptyIDResetsLastEventID() {
        assertEvents(
            "id: 1\ndata: a\n\nid\ndata: b\n\n", [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b")])
    }

    func testIDContainingNullIsIgnored() {
        assertEvents(
            "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n",
            [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")]
        )
    }

    func testInitialLastEventIDAndParserState() {
        var parser = ServerSentEventParser(lastEventID: "resume-9")
        XCTAssertEqual(
            parser.consume(Array("data: a\n\nid: 10\n\n".utf8)), [ServerSentEvent(data: "a", id: "resume-9")])
        XCTAssertEqual(parser.lastEventID, "10")
    }

    // MARK: retry

    func testRetryDigitsSetReconnectionTime() {
        assertEvents(
            "retry: 3000\ndata: x\n\ndata: y\n\n",
            [ServerSentEvent(data: "x", retry: 3000), ServerSentEvent(data: "y")])
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.consume(Array("retry: 1500\n\n".utf8)), [])
        XCTAssertEqual(parser.reconnectionTime, 1500)
    }

    func testRetryWithNonDigitsIsIgnored() {
        for value in ["30a", "-1", "+1", " 1", "1.5", "", "99999999999999999999999"] {
            var parser = ServerSentEventParser()
            XCTAssertEqual(
                parser.consume(Array("retry: \(value)\ndata: x\n\n".utf8)),
                [ServerSentEvent(data: "x")],
                "retry: \(value)"
            )
            XCTAssertNil(parser.reconnectionTime, "retry: \(value)")
        }
    }

    func testRetryOnlyAndKeepAliveOnlyBlocksBetweenEventsProduceNoEvents() {
        assertEvents(
            "data: {\"a\":1}\n\nretry: 3000\n\n: keep-alive\n\ndata: {\"a\":2}\n\n",
            [ServerSentEvent(data: "{\"a\":1}"), ServerSentEvent(data: "{\"a\":2}")]
        )
    }

    // MARK: blank lines

    func testBlankLinesWithEmptyDataBufferDispatchNothing() {
        assertEvents("\n\n\r\n\r\r", [])
    }

    // MARK: line ends

    func testCRLFLineEnds() {
        assertEvents("event: e\r\ndata: a\r\ndata: b\r\n\r\n", [ServerSentEvent(event: "e", data: "a\nb")])
    }

    func testCRLineEnds() {
        assertEvents("event: e\rdata: a\rdata: b\r\r", [ServerSentEvent(event: "e", data: "a\nb")])
    }

    func testMixedLineEnds() {
        assertEvents(
            "data: a\rdata: b\ndata: c\r\n\ndata: d\n\r\n",
            [ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(data: "d")]
        )
    }

    func testLineFeedThenCarriageReturnIsTwoLineEnds() {
        assertEvents("data: a\n\rdata: b\n\n", [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    }

    func testCRAtChunkEndAndLFAtNextChunkStartIsOneLineEnd() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.consume(Array("data: a\r".utf8)), [])
        XCTAssertEqual(parser.consume(Array("\ndata: b\r".utf8)), [])
        XCTAssertEqual(parser.consume(Array("\n".utf8)), [])
        XCTAssertEqual(parser.consume(Array("\r".utf8)), [ServerSentEvent(data: "a\nb")])
        XCTAssertEqual(parser.consume(Array("\n".utf8)), [])
        XCTAssertFalse(parser.hasIncompleteEvent)
    }

    func testEmptyChunksChangeNothing() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.consume([UInt8]()), [])
        XCTAssertEqual(parser.consume(Array("data: a\r".utf8)), [])
        XCTAssertEqual(parser.consume([UInt8]()), [])
        XCTAssertEqual(parser.consume(Array("\n\n".utf8)), [ServerSentEvent(data: "a")])
    }

    // MARK: byte order mark and UTF-8

    func testLeadingByteOrderMarkIsStripped() {
        assertEvents("\u{FEFF}data: a\n\n", [ServerSentEvent(data: "a")])
    }

    func testOnlyOneByteOrderMarkIsStripped() {
        // The second mark becomes part of the field name, so the field is unknown.
        assertEvents("\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n", [ServerSentEvent(data: "b")])
    }

    func testByteOrderMarkLaterInStreamIsNotStripped() {
        assertEvents("data: a\n\n\u{FEFF}data: b\n\n", [ServerSentEvent(data: "a")])
        assertEvents("data: \u{FEFF}a\n\n", [ServerSentEvent(data: "\u{FEFF}a")])
    }

    func testPartialByteOrderMarkIsOrdinaryInput() {
        // EF BB then "data": the held bytes are replayed as part of the field name.
        SSETestSupport.assertEverySplit(
            [0xEF, 0xBB] + Array("data: a\n\ndata: b\n\n".utf8), give: [ServerSentEvent(data: "b")])
        SSETestSupport.assertEverySplit([0xEF] + Array("\ndata: b\n\n".utf8), give: [ServerSentEvent(data: "b")])
    }

    func testMultiByteUTF8SplitAnywhere() {
        assertEvents(
            "event: ünïcødé\ndata: héllo 😀 日本語\nid: ✓\n\n",
            [ServerSentEvent(event: "ünïcødé", data: "héllo 😀 日本語", id: "✓")]
        )
    }

    func testMalformedUTF8BecomesReplacementCharacter() {
        SSETestSupport.assertEverySplit(
            Array("data: a".utf8) + [0xFF, 0xC3] + Array("\n\n".utf8),
            give: [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}")]
        )
    }

    // MARK: end of stream

    func testFinishDiscardsIncompleteEvent() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.consume(Array("data: a\n\ndata: b\n".utf8)), [ServerSentEvent(data: "a")])
        XCTAssertTrue(parser.hasIncompleteEvent)
        XCTAssertEqual(parser.finish(), [])
        XCTAssertFalse(parser.hasIncompleteEvent)
        // The parser can start a new stream, which again strips a leading byte order mark.
        XCTAssertEqual(parser.consume(Array("\u{FEFF}data: c\n\n".utf8)), [ServerSentEvent(data: "c")])
    }

    func testConsumeIntoAppends() {
        var parser = ServerSentEventParser()
        var events = [ServerSentEvent(data: "existing")]
        parser.consume(Array("data: a\n\ndata: b\n\n".utf8), into: &events)
        XCTAssertEqual(events.map(\.data), ["existing", "a", "b"])
    }

    func testNonContiguousCollectionInput() {
        var parser = ServerSentEventParser()
        let bytes = "data: lazy\n\n".utf8.lazy.map { $0 }
        XCTAssertEqual(parser.consume(bytes), [ServerSentEvent(data: "lazy")])
    }

    // MARK: long lines

    func testSingleDataLineOf200000BytesArrivesWhole() {
        assertLongLine(byteCount: 200_000, chunkSize: 1_337)
    }

    func testSingleDataLineOf1MegabyteArrivesWhole() {
        assertLongLine(byteCount: 1 << 20, chunkSize: 16_384)
    }

    private func assertLongLine(byteCount: Int, chunkSize: Int, file: StaticString = #filePath, line: UInt = #line) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let payload = (0..<byteCount).map { alphabet[$0 % alphabet.count] }
        let body =
            Array("event: image_generation.partial_image\ndata: ".utf8) + payload + Array("\n\ndata: next\n\n".utf8)
        let expected = [
            ServerSentEvent(event: "image_generation.partial_image", data: String(decoding: payload, as: UTF8.self)),
            ServerSentEvent(data: "next"),
        ]
        let oneShot = SSETestSupport.parse(body)
        XCTAssertEqual(oneShot.count, 2, file: file, line: line)
        XCTAssertEqual(oneShot.first?.data.utf8.count, byteCount, file: file, line: line)
        XCTAssertEqual(oneShot, expected, file: file, line: line)
        let chunked = SSETestSupport.parse(body, splitAt: Array(stride(from: chunkSize, to: body.count, by: chunkSize)))
        XCTAssertEqual(chunked, expected, file: file, line: line)
    }
}
