import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The stream accumulators cost time linear in the length of a reply (issue "field reliability":
/// 1 MB of chat content took 24.6 s): each text buffer grows in place instead of being copied per
/// delta. Counted, not timed: a buffer copied per delta lives at a new address after every delta,
/// one that grows in place moves only when its capacity doubles. `Scripts/bench/bench-accumulators.sh`
/// measures the time.
final class StreamAccumulatorCostTests: XCTestCase {
    /// Deltas of 4 characters: 20,000 characters in all, so a copy per delta is 5,000 moves and
    /// growth in place about 11 (16 bytes doubling to 32 KiB).
    private static let pieces = (0..<5_000).map { String(format: "%04d", $0) }
    private static let text = pieces.joined()
    /// Far above the doublings of growth in place, far below one move per delta.
    private static let maxMoves = 100

    /// Follows the address of a text buffer across deltas.
    private struct MoveCounter {
        private var last: UInt?
        private(set) var moves = 0

        /// Notes the buffer's address now; `text` must be dropped before the next delta.
        mutating func observe(_ text: String?) {
            // A string of up to 15 UTF-8 bytes is held inline, with no buffer of its own.
            guard let text, text.utf8.count > 15,
                let address = text.utf8.withContiguousStorageIfAvailable({ UInt(bitPattern: $0.baseAddress) })
            else { return }
            if let last, last != address { moves += 1 }
            last = address
        }
    }

    private static let chatTemplate: CreateChatCompletionStreamResponse = try! JSONDecoder().decode(
        CreateChatCompletionStreamResponse.self,
        from: Data(
            #"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":null}]}"#
                .utf8))

    func testChatContentAndRefusalGrowInPlaceInsteadOfBeingCopiedPerChunk() {
        var accumulator = ChatCompletionStreamAccumulator()
        var content = MoveCounter()
        var refusal = MoveCounter()
        for piece in Self.pieces {
            var chunk = Self.chatTemplate
            chunk.choices[0].delta.content = piece
            chunk.choices[0].delta.refusal = piece
            accumulator.append(chunk)
            content.observe(accumulator.content())
            refusal.observe(accumulator.refusal())
        }
        XCTAssertEqual(accumulator.content(), Self.text)
        XCTAssertEqual(accumulator.refusal(), Self.text)
        XCTAssertLessThan(content.moves, Self.maxMoves, "the content was copied per chunk")
        XCTAssertLessThan(refusal.moves, Self.maxMoves, "the refusal was copied per chunk")
    }

    func testReasoningAndOtherUndeclaredDeltaMembersGrowInPlace() {
        var accumulator = ChatCompletionStreamAccumulator()
        var reasoning = MoveCounter()
        var member = MoveCounter()
        var details = MoveCounter()
        for piece in Self.pieces {
            var chunk = Self.chatTemplate
            chunk.choices[0].delta.undeclaredMembers = [
                "reasoning_content": .string(piece),
                "reasoning_details": [["type": "reasoning.text", "index": 0, "text": .string(piece)]],
            ]
            accumulator.append(chunk)
            reasoning.observe(accumulator.reasoning())
            let members = accumulator.completion?.choices[0].message.undeclaredMembers
            member.observe(members?["reasoning_content"]?.stringValue)
            details.observe(members?["reasoning_details"]?[0]?["text"]?.stringValue)
        }
        XCTAssertEqual(accumulator.reasoning(), Self.text)
        XCTAssertLessThan(reasoning.moves, Self.maxMoves, "the reasoning was copied per chunk")
        XCTAssertLessThan(member.moves, Self.maxMoves, "reasoning_content was copied per chunk")
        XCTAssertLessThan(details.moves, Self.maxMoves, "reasoning_details[0].text was copied per chunk")
    }

    func testChatToolCallArgumentsAndCustomInputGrowInPlace() {
        var accumulator = ChatCompletionStreamAccumulator()
        var function = MoveCounter()
        var custom = MoveCounter()
        for (index, piece) in Self.pieces.enumerated() {
            var chunk = Self.chatTemplate
            chunk.choices[0].delta.toolCalls = [
                .function(.init(index: 0, id: index == 0 ? "call_a" : nil, function: .init(arguments: piece))),
                .custom(.init(index: 1, id: index == 0 ? "call_b" : nil, custom: .init(input: piece))),
            ]
            accumulator.append(chunk)
            function.observe(accumulator.toolCallArguments(0))
            custom.observe(accumulator.toolCallArguments(1))
        }
        XCTAssertEqual(accumulator.toolCallArguments(0), Self.text)
        XCTAssertEqual(accumulator.toolCallArguments(1), Self.text)
        XCTAssertLessThan(function.moves, Self.maxMoves, "the arguments were copied per chunk")
        XCTAssertLessThan(custom.moves, Self.maxMoves, "the custom input was copied per chunk")
    }

    func testEventsDroppedBeforeTheNextChunkLeaveTheTextUnshared() {
        // What `for event in accumulator.append(chunk) { … }` does: the snapshots go with the events.
        var accumulator = ChatCompletionStreamAccumulator()
        var content = MoveCounter()
        var snapshots = 0
        for piece in Self.pieces {
            var chunk = Self.chatTemplate
            chunk.choices[0].delta.content = piece
            for event in accumulator.append(chunk) {
                if case .contentDelta(0, piece, let snapshot) = event, snapshot.hasSuffix(piece) { snapshots += 1 }
            }
            content.observe(accumulator.content())
        }
        XCTAssertEqual(snapshots, Self.pieces.count)
        XCTAssertLessThan(content.moves, Self.maxMoves)
    }

    func testResponsesTextAndArgumentsGrowInPlace() throws {
        func event(_ json: String) throws -> ResponseStreamEvent {
            try JSONDecoder().decode(ResponseStreamEvent.self, from: Data(json.utf8))
        }
        var accumulator = try ResponseStreamAccumulator()
        try accumulator.apply(
            event(
                #"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}"#
            ))
        try accumulator.apply(
            event(
                #"{"type":"response.output_item.added","sequence_number":2,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"save"}}"#
            ))
        guard
            case .responseOutputTextDelta(var text) = try event(
                #"{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"","logprobs":[]}"#
            ),
            case .responseFunctionCallArgumentsDelta(var arguments) = try event(
                #"{"type":"response.function_call_arguments.delta","sequence_number":4,"item_id":"fc_1","output_index":1,"delta":""}"#
            )
        else { return XCTFail("the deltas did not decode as their events") }
        var textMoves = MoveCounter()
        var argumentMoves = MoveCounter()
        for piece in Self.pieces {
            text.delta = piece
            arguments.delta = piece
            try accumulator.apply(.responseOutputTextDelta(text))
            try accumulator.apply(.responseFunctionCallArgumentsDelta(arguments))
            textMoves.observe(accumulator.outputText(outputIndex: 0))
            argumentMoves.observe(accumulator.arguments(outputIndex: 1))
        }
        XCTAssertEqual(accumulator.outputText(outputIndex: 0), Self.text)
        XCTAssertEqual(accumulator.arguments(outputIndex: 1), Self.text)
        XCTAssertLessThan(textMoves.moves, Self.maxMoves, "the output text was copied per event")
        XCTAssertLessThan(argumentMoves.moves, Self.maxMoves, "the arguments were copied per event")
    }
}
