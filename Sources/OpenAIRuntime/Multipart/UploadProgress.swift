import Foundation

/// How much of an upload has been sent: for a progress bar.
///
/// Feed it from ``RequestOptions/uploadProgress`` with ``makeStream()`` to read it as an
/// `AsyncSequence`, or receive it from ``UploadsAPI/uploadFileChunked(fileURL:purpose:mimeType:filename:partSize:maxConcurrentParts:maxPartAttempts:expiresAfter:options:progress:)``.
public struct UploadProgress: Hashable, Sendable {
    /// The bytes sent so far, in bytes.
    public var bytesSent: Int64
    /// The total to send, in bytes, when known.
    public var totalBytes: Int64?

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - bytesSent: The bytes sent so far.
    ///   - totalBytes: The total, when known.
    public init(bytesSent: Int64, totalBytes: Int64?) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    /// `bytesSent / totalBytes` between 0 and 1, or `nil` when the total is unknown (an empty
    /// upload is complete: 1).
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(bytesSent) / Double(totalBytes))
    }

    /// Makes an `AsyncStream` of progress values and the callback that feeds it, to pass as
    /// ``RequestOptions/uploadProgress``.
    ///
    /// ```swift
    /// let (updates, report) = UploadProgress.makeStream()
    /// async let file = client.files.create(form, options: RequestOptions(uploadProgress: report))
    /// for await progress in updates { print(progress.fractionCompleted ?? 0) }
    /// let created = try await file
    /// ```
    ///
    /// The stream keeps only the newest value when the reader is slower than the upload, and
    /// finishes when every byte of a known total has been sent.
    ///
    /// - Returns: The stream and the callback.
    public static func makeStream() -> (
        updates: AsyncStream<UploadProgress>, report: @Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void
    ) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UploadProgress.self, bufferingPolicy: .bufferingNewest(1))
        let report: @Sendable (Int64, Int64?) -> Void = { sent, total in
            continuation.yield(UploadProgress(bytesSent: sent, totalBytes: total))
            if let total, sent >= total { continuation.finish() }
        }
        return (stream, report)
    }
}
