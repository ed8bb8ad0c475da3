import Foundation
import OpenAI
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

/// Reply routing as a pure state machine: which waiter a server event completes or fails.
final class RealtimeReplyRouterTests: XCTestCase {
    private func event(_ json: String) throws -> RealtimeServerEvent {
        try JSONDecoder().decode(RealtimeServerEvent.self, from: Data(json.utf8))
    }

    private func error(eventID: String?) throws -> RealtimeServerEvent {
        let id = eventID.map { #","event_id":"\#($0)""# } ?? ""
        return try event(
            #"{"type":"error","event_id":"event_9","error":{"type":"invalid_request_error","code":"x","message":"bad"\#(id)}}"#
        )
    }

    private let sessionUpdated =
        #"{"type":"session.updated","event_id":"event_2","session":{"type":"realtime","object":"realtime.session","id":"sess_1"}}"#
    private let committed =
        #"{"type":"input_audio_buffer.committed","event_id":"event_3","item_id":"item_1"}"#

    func testAReplyCompletesTheOldestWaiterOfItsKindOnly() throws {
        var router = RealtimeReplyRouter<String>()
        router.register(token: 1, clientEventID: "c1", replyKinds: [.sessionUpdated], waiter: "a")
        router.register(
            token: 2, clientEventID: "c2", replyKinds: [.inputAudioBufferCommitted], waiter: "b")
        router.register(token: 3, clientEventID: "c3", replyKinds: [.sessionUpdated], waiter: "c")

        let resolutions = router.route(try event(sessionUpdated))
        guard case .reply(let waiter, .sessionUpdated(let updated))? = resolutions.first else {
            return XCTFail("expected a reply, got \(resolutions)")
        }
        XCTAssertEqual(resolutions.count, 1)
        XCTAssertEqual(waiter, "a")
        XCTAssertEqual(updated.eventID, "event_2")
        XCTAssertEqual(router.pending.map(\.waiter), ["b", "c"])

        guard case .reply("b", _)? = router.route(try event(committed)).first else {
            return XCTFail("committed must complete b")
        }
        XCTAssertEqual(router.pending.map(\.waiter), ["c"])
    }

    func testAnErrorNamingAClientEventFailsThatWaiterOnly() throws {
        var router = RealtimeReplyRouter<String>()
        router.register(token: 1, clientEventID: "c1", replyKinds: [.sessionUpdated], waiter: "a")
        router.register(token: 2, clientEventID: "c2", replyKinds: [.responseCreated], waiter: "b")
        let resolutions = router.route(try error(eventID: "c2"))
        guard case .failure(let waiter, let failure)? = resolutions.first else {
            return XCTFail("expected a failure, got \(resolutions)")
        }
        XCTAssertEqual(resolutions.count, 1)
        XCTAssertEqual(waiter, "b")
        XCTAssertEqual(failure.error.code, "x")
        XCTAssertEqual(failure.error.eventID, "c2")
        XCTAssertEqual(router.pending.map(\.waiter), ["a"])
    }

    func testAnErrorAboutAnEventNobodyWaitsForFailsNoWaiter() throws {
        var router = RealtimeReplyRouter<String>()
        router.register(token: 1, clientEventID: "c1", replyKinds: [.sessionUpdated], waiter: "a")
        XCTAssertTrue(router.route(try error(eventID: "append_7")).isEmpty)
        XCTAssertEqual(router.pending.map(\.waiter), ["a"])
    }

    func testAnErrorWithoutEventIDFailsEveryWaiter() throws {
        var router = RealtimeReplyRouter<String>()
        router.register(token: 1, clientEventID: "c1", replyKinds: [.sessionUpdated], waiter: "a")
        router.register(token: 2, clientEventID: "c2", replyKinds: [.responseCreated], waiter: "b")
        let failed = router.route(try error(eventID: nil)).compactMap { resolution -> String? in
            if case .failure(let waiter, _) = resolution { return waiter }
            return nil
        }
        XCTAssertEqual(failed, ["a", "b"])
        XCTAssertTrue(router.pending.isEmpty)
    }

    func testUnrelatedAndUnknownEventsResolveNothing() throws {
        var router = RealtimeReplyRouter<String>()
        router.register(token: 1, clientEventID: "c1", replyKinds: [.sessionUpdated], waiter: "a")
        XCTAssertTrue(router.route(try event(committed)).isEmpty)
        XCTAssertTrue(
            router.route(try event(#"{"type":"transcription_session.updated","session":{}}"#))
                .isEmpty)
        XCTAssertEqual(router.remove(token: 1), "a")
        XCTAssertNil(router.remove(token: 1))
        XCTAssertTrue(router.pending.isEmpty)
    }

    func testBetaAndGAItemEventsBothAnswerConversationItemCreate() throws {
        let item = #""item":{"type":"function_call_output","call_id":"call_1","output":"{}"}"#
        for type in ["conversation.item.added", "conversation.item.created"] {
            var router = RealtimeReplyRouter<Int>()
            router.register(
                token: 1, clientEventID: "c", replyKinds: [.conversationItemAdded], waiter: 7)
            let reply = try event(#"{"type":"\#(type)","event_id":"e",\#(item)}"#)
            guard case .reply(7, _)? = router.route(reply).first else {
                return XCTFail("\(type) must answer conversation.item.create")
            }
        }
    }

    func testCancelNamingAResponseWaitsForThatResponsesDoneOnly() throws {
        func done(_ id: String) throws -> RealtimeServerEvent {
            try event(
                #"{"type":"response.done","event_id":"event_\#(id)","response":{"object":"realtime.response","id":"\#(id)","status":"cancelled"}}"#
            )
        }
        var router = RealtimeReplyRouter<String>()
        router.register(
            token: 1, clientEventID: "c1", replyKinds: [.responseDone], responseID: "resp_2",
            waiter: "named")
        // A response the server started on its own (server VAD) ends first: not the named one.
        XCTAssertTrue(router.route(try done("resp_1")).isEmpty)
        router.register(token: 2, clientEventID: "c2", replyKinds: [.responseDone], waiter: "any")
        guard case .reply("any", _)? = router.route(try done("resp_3")).first else {
            return XCTFail("a waiter without a response id takes the next response.done")
        }
        guard case .reply("named", .responseDone(let reply))? = router.route(try done("resp_2")).first
        else { return XCTFail("resp_2's response.done completes the named waiter") }
        XCTAssertEqual(reply.response.id, "resp_2")
        XCTAssertTrue(router.pending.isEmpty)
    }
}
