import Foundation

/// A one-shot asynchronous sequence of `Data` chunks, read synchronously by
/// ``MultipartBodyReader`` (which runs on the transport's I/O thread, as `InputStream.read` does).
///
/// At most one chunk is held at a time: the sequence is asked for the next chunk only after the
/// reader took the previous one, so memory stays flat however long the stream.
final class AsyncChunkSource: Sendable, Hashable {
    /// The number of bytes the sequence promises.
    let length: Int64
    private let start: @Sendable (ChunkHandoff) -> Task<Void, Never>
    /// Whether the sequence was claimed (it is read once).
    private let claimed = Locked(false)

    init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64) where Chunks.Element == Data {
        self.length = length
        self.start = { handoff in
            Task {
                do {
                    for try await chunk in chunks where !chunk.isEmpty {
                        guard await handoff.put(chunk) else { return }
                    }
                    handoff.finish(nil)
                } catch {
                    handoff.finish(error)
                }
            }
        }
    }

    /// Starts reading the sequence; the returned handoff delivers its chunks.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` on the second call:
    ///   the stream was already sent once.
    func claim() throws -> ChunkHandoff {
        let already = claimed.withLock { claimed in
            defer { claimed = true }
            return claimed
        }
        if already {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "A streamed file upload can be sent only once; use a file URL or data to retry.")
        }
        let handoff = ChunkHandoff()
        handoff.task = start(handoff)
        return handoff
    }

    static func == (lhs: AsyncChunkSource, rhs: AsyncChunkSource) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
