import Foundation
import OpenAIWebSocket

extension RealtimeSession {
    /// What a Realtime connection is for: the query of `wss://api.openai.com/v1/realtime`.
    public struct Target: Sendable, Hashable {
        /// The query items appended to the endpoint.
        public var queryItems: [URLQueryItem]

        /// Creates a target from query items.
        ///
        /// - Parameters:
        ///   - queryItems: The items, for example `[URLQueryItem(name: "model", value: "gpt-realtime")]`.
        public init(queryItems: [URLQueryItem]) {
            self.queryItems = queryItems
        }

        /// A conversation with a model: `?model=<model>`.
        ///
        /// - Parameters:
        ///   - model: The model ID, for example `gpt-realtime`.
        /// - Returns: The target.
        public static func model(_ model: String) -> Target {
            Target(queryItems: [URLQueryItem(name: "model", value: model)])
        }

        /// A phone or WebRTC call to monitor and control: `?call_id=<id>` (the ID from a
        /// `realtime.call.incoming` webhook or the `Location` of `POST /realtime/calls`).
        ///
        /// - Parameters:
        ///   - callID: The call ID, for example `rtc_…`.
        /// - Returns: The target.
        public static func call(id callID: String) -> Target {
            Target(queryItems: [URLQueryItem(name: "call_id", value: callID)])
        }

        /// A transcription-only session: `?intent=transcription`; configure it with a
        /// `session.update` whose session has `type: "transcription"`.
        public static var transcription: Target {
            Target(queryItems: [URLQueryItem(name: "intent", value: "transcription")])
        }
    }
}
