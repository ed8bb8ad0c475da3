extension OpenAIError {
    /// What a stream had delivered when an error ended it.
    public struct StreamProgress: Sendable, Hashable {
        /// How many events the stream had yielded (skipped events not counted).
        public var eventCount: Int
        /// The type of the last event received: its `event:` name or its JSON `type`, when known.
        public var lastEventType: String?
        /// For ``OpenAIError/Kind/unfinishedChoices``: the indices of the choices that had no
        /// `finish_reason`, in ascending order.
        public var unfinishedChoices: [Int]

        /// Creates a progress record.
        ///
        /// - Parameters:
        ///   - eventCount: Events yielded.
        ///   - lastEventType: The type of the last event received.
        ///   - unfinishedChoices: Choice indices without a `finish_reason`.
        public init(eventCount: Int, lastEventType: String? = nil, unfinishedChoices: [Int] = []) {
            self.eventCount = eventCount
            self.lastEventType = lastEventType
            self.unfinishedChoices = unfinishedChoices
        }
    }
}
