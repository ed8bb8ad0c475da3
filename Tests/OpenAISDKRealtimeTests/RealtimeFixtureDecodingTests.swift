import Foundation
import OpenAI
import XCTest
import OpenAISDKTestSupport

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

/// The spec's Realtime examples and recorded Realtime payloads in ../shared/fixtures/realtime
/// decode into the generated types the session layer delivers (read in place, never copied).
final class RealtimeFixtureDecodingTests: XCTestCase {
    /// `../shared/fixtures/realtime/<path>`; skips the test with a message when missing.
    private func fixture(_ path: String) throws -> URL {
        try SharedData.file("fixtures/realtime/\(path)")
    }

    /// Per-file decode counts.
    struct Report: CustomStringConvertible {
        var lines = 0
        var typed = 0
        /// `type` values the union does not define, delivered as `.unknown` by design.
        var unknownTypes: [String] = []
        /// Known types that did not decode, with the reason.
        var failures: [RealtimeDecodingFailure] = []

        var description: String {
            "\(lines) lines: \(typed) typed, \(unknownTypes.count) unknown \(unknownTypes), "
                + "\(failures.count) failed \(failures.map(\.description))"
        }
    }

    private func decodeLines<Event: Decodable>(
        _ path: String, as type: Event.Type, unknown: @escaping (JSONValue) -> Event,
        isUnknown: (Event) -> JSONValue?
    ) throws -> Report {
        let text = try String(contentsOf: try fixture(path), encoding: .utf8)
        var report = Report()
        for line in text.split(separator: "\n") where !line.isEmpty {
            report.lines += 1
            let outcome = EventDecoding.decode(
                .text(String(line)), as: Event.self, unknown: unknown)
            if let failure = outcome.failure {
                report.failures.append(failure)
            } else if let raw = isUnknown(outcome.event) {
                report.unknownTypes.append(raw["type"]?.stringValue ?? "<none>")
                // The raw JSON is kept intact: it equals the line parsed on its own.
                XCTAssertEqual(
                    raw, try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)))
            } else {
                report.typed += 1
            }
        }
        print("\(path): \(report)")
        return report
    }

    private func serverEvents(_ path: String) throws -> Report {
        try decodeLines(
            path, as: RealtimeServerEvent.self, unknown: { .unknown($0) },
            isUnknown: { if case .unknown(let raw) = $0 { return raw } else { return nil } })
    }

    func testEveryGAServerEventExampleOfASpecDefinedTypeDecodesTyped() throws {
        let report = try serverEvents("spec-examples/server-events.ga.jsonl")
        XCTAssertEqual(report.lines, 47)
        XCTAssertEqual(report.failures, [], "\(report.failures)")
        // transcription_session.updated is absent from the spec's RealtimeServerEvent union (the
        // bug-report case); the dtmf example's type has a leading space in the spec itself.
        XCTAssertEqual(
            report.unknownTypes.sorted(),
            [" input_audio_buffer.dtmf_event_received", "transcription_session.updated"])
        XCTAssertEqual(report.typed, 45)
    }

    func testBetaServerEventExamplesDecodeOrArriveAsUnknown() throws {
        let report = try serverEvents("spec-examples/server-events.beta.jsonl")
        XCTAssertEqual(report.lines, 40)
        // Beta-only types are not in the GA union: they arrive as unknown with their JSON.
        XCTAssertEqual(
            report.unknownTypes.sorted(),
            ["transcription_session.created", "transcription_session.updated"])
        XCTAssertEqual(report.failures.map(\.eventType), [], "\(report.failures)")
        XCTAssertEqual(report.typed, 38)
    }

    func testGAClientEventExamplesDecode() throws {
        let report = try decodeLines(
            "spec-examples/client-events.ga.jsonl", as: RealtimeClientEvent.self,
            unknown: { .unknown($0) },
            isUnknown: { if case .unknown(let raw) = $0 { return raw } else { return nil } })
        XCTAssertEqual(report.lines, 12)
        XCTAssertEqual(report.failures, [], "\(report.failures)")
        // transcription_session.update is a beta client event, absent from the GA client union.
        XCTAssertEqual(report.unknownTypes, ["transcription_session.update"])
        XCTAssertEqual(report.typed, 11)
    }

    func testTranslationServerEventsDecode() throws {
        for path in [
            "spec-examples/translation-server-events.jsonl",
            "synthetic/vercel-speech-translation.jsonl",
        ] {
            let report = try decodeLines(
                path, as: RealtimeTranslationServerEvent.self, unknown: { .unknown($0) },
                isUnknown: { if case .unknown(let raw) = $0 { return raw } else { return nil } })
            XCTAssertGreaterThan(report.lines, 5, path)
            XCTAssertEqual(report.failures, [], "\(path): \(report.failures)")
            XCTAssertEqual(report.unknownTypes, [], path)
            XCTAssertEqual(report.typed, report.lines, path)
        }
    }

    func testRecordedAndExampleClientSecretResponsesDecode() throws {
        for path in [
            "rest/dotnet-client-secret-realtime.json",
            "rest/dotnet-client-secret-transcription.json",
            "spec-examples/realtime-create-client-secret-response.json",
        ] {
            let data = try Data(contentsOf: try fixture(path))
            let secret = try JSONDecoder().decode(RealtimeCreateClientSecretResponse.self, from: data)
            XCTAssertTrue(secret.value.hasPrefix("ek_"), path)
            XCTAssertGreaterThan(secret.expiresAt, 1_700_000_000, "\(path): Unix seconds")
        }
        let transcription = try JSONDecoder().decode(
            RealtimeTranscriptionSessionCreateResponseGA.self,
            from: try Data(
                contentsOf: try fixture(
                    "spec-examples/realtime-transcription-session-create-response-ga.json")))
        XCTAssertFalse(transcription.id.isEmpty)
    }

    func testBugReportBetaTranscriptNameIsUnknownAndGANameIsTyped() throws {
        let beta = EventDecoding.decode(
            .text(
                #"{"type":"response.audio_transcript.done","event_id":"e1","response_id":"r","item_id":"i","output_index":0,"content_index":0,"transcript":"beta name"}"#
            ), as: RealtimeServerEvent.self, unknown: { .unknown($0) })
        guard case .unknown(let raw) = beta.event else { return XCTFail("\(beta.event)") }
        XCTAssertNil(beta.failure)
        XCTAssertEqual(raw["type"]?.stringValue, "response.audio_transcript.done")
        XCTAssertEqual(raw["transcript"]?.stringValue, "beta name")

        let ga = EventDecoding.decode(
            .text(
                #"{"type":"response.output_audio_transcript.done","event_id":"e2","response_id":"r","item_id":"i","output_index":0,"content_index":0,"transcript":"GA name"}"#
            ), as: RealtimeServerEvent.self, unknown: { .unknown($0) })
        guard case .responseOutputAudioTranscriptDone(let done) = ga.event else {
            return XCTFail("\(ga.event)")
        }
        XCTAssertEqual(done.transcript, "GA name")
    }

    func testKnownTypeMissingRequiredMembersIsTypedWithTheMissingMembersRecorded() {
        // A server (an older API version, a compatible provider) that leaves out `event_id` and
        // the session's `object`: the event is still typed, and what was missing is recorded.
        let outcome = EventDecoding.decode(
            .text(#"{"type":"session.updated","session":{"type":"realtime","id":"s"}}"#),
            as: RealtimeServerEvent.self, unknown: { .unknown($0) })
        guard case .sessionUpdated(let updated) = outcome.event else { return XCTFail("\(outcome.event)") }
        XCTAssertNil(outcome.failure)
        XCTAssertEqual(updated.eventID, "")
        XCTAssertTrue(updated.specDeviations.isMissing("event_id"))
        guard case .realtime(let session) = updated.session else { return XCTFail("\(updated.session)") }
        XCTAssertEqual(session.id, "s")
        XCTAssertTrue(session.specDeviations.isMissing("object"))
    }

    func testKnownTypeInAnUnexpectedShapeIsDeliveredAsUnknownWithTheReasonInStrictMode() {
        var decoder = OrderedJSONDecoder()
        decoder.userInfo[.openAIDecodingMode] = DecodingMode.strict
        let outcome = EventDecoding.decode(
            .text(#"{"type":"session.updated","session":{"type":"realtime","id":"s"}}"#),
            as: RealtimeServerEvent.self, unknown: { .unknown($0) }, decoder: decoder)
        guard case .unknown(let raw) = outcome.event else { return XCTFail("\(outcome.event)") }
        XCTAssertEqual(raw["session"]?["id"]?.stringValue, "s")
        XCTAssertEqual(outcome.failure?.eventType, "session.updated")
        XCTAssertEqual(outcome.failure?.message, #"missing key "event_id" at <root>"#)

        let notJSON = EventDecoding.decode(
            .text("closing"), as: RealtimeServerEvent.self, unknown: { .unknown($0) })
        XCTAssertEqual(notJSON.event, .unknown(.string("closing")))
        XCTAssertNil(notJSON.failure?.eventType)
    }
}
