import Foundation
import OpenAIRuntime

extension UploadsAPI {
    /// The largest part the Uploads API accepts: 64 MiB (`addUploadPart`: "Each Part can be at most
    /// 64 MB").
    public static let maxPartSize: Int64 = 64 << 20

    /// Uploads a large file with the Uploads API: creates an Upload, sends the file in parts of at
    /// most 64 MiB, several at once, and completes the Upload with the parts in file order (the
    /// counterpart of openai-python's `uploads.upload_file_chunked`).
    ///
    /// Each part is read from disk while it is sent, so memory stays flat (about
    /// `maxConcurrentParts` × 64 KiB of buffers). A part that fails is sent again on its own, up
    /// to `maxPartAttempts` times, with the others unaffected, by the same retry rules as every
    /// request (the client's retry loop: connection failures, timeouts, 408, 409, 429 and 5xx,
    /// `x-should-retry`, `Retry-After` and `retry-after-ms`, exponential backoff with jitter).
    /// When a part still fails, or the calling task is cancelled, before `complete` is sent, the
    /// Upload is cancelled on the server (`POST /uploads/{id}/cancel`) before the error is thrown.
    ///
    /// ```swift
    /// let upload = try await client.uploads.uploadFileChunked(
    ///     fileURL: URL(fileURLWithPath: "training.jsonl"), purpose: .fineTune)
    /// print(upload.file?.id ?? "")
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: The file to upload.
    ///   - purpose: The intended purpose of the file (`CreateUploadRequest.purpose`).
    ///   - mimeType: The MIME type; inferred from the extension when `nil`.
    ///   - filename: The name the file gets; the URL's last path component when `nil`.
    ///   - partSize: The size of each part but the last, in bytes; at most ``maxPartSize``.
    ///   - maxConcurrentParts: How many parts are in flight at once; at least 1.
    ///   - maxPartAttempts: How many times one part is tried before the upload fails; at least 1.
    ///   - expiresAfter: The expiration policy of the resulting file.
    ///   - options: Per-request options for every request of the upload; the number of attempts
    ///     of a part is `maxPartAttempts` instead of `maxRetries` + 1.
    ///   - progress: Called with the file bytes sent so far (of every part in flight) and the
    ///     file's size, as parts go out and complete.
    /// - Returns: The completed Upload; its `file` is the created File object.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` for an unreadable
    ///   file or invalid sizes; the error of the request that failed (after the part's attempts);
    ///   ``OpenAIError/Kind/cancelled`` when the task was cancelled.
    public func uploadFileChunked(
        fileURL: URL,
        purpose: CreateUploadRequest.Purpose,
        mimeType: String? = nil,
        filename: String? = nil,
        partSize: Int64 = UploadsAPI.maxPartSize,
        maxConcurrentParts: Int = 3,
        maxPartAttempts: Int = 3,
        expiresAfter: FileExpirationAfter? = nil,
        options: RequestOptions = RequestOptions(),
        progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> Upload {
        guard partSize > 0, partSize <= Self.maxPartSize else {
            throw OpenAIError(
                kind: .invalidRequest, message: "partSize must be 1...\(Self.maxPartSize) bytes, not \(partSize).")
        }
        let whole = try FileUpload(fileURL: fileURL, filename: filename, contentType: mimeType)
        let size = whole.length
        let ranges = Self.partRanges(size: size, partSize: partSize)
        let upload = try await create(
            CreateUploadRequest(
                filename: whole.filename, purpose: purpose, bytes: Int(size), mimeType: whole.contentType,
                expiresAfter: expiresAfter),
            options: options)
        let tracker = PartProgressTracker(partCount: ranges.count, total: size, report: progress)
        var partOptions = options
        partOptions.maxRetries = max(1, maxPartAttempts) - 1
        let ids: [String]
        do {
            ids = try await sendParts(
                uploadID: upload.id, fileURL: fileURL, filename: whole.filename, ranges: ranges,
                maxConcurrent: max(1, maxConcurrentParts), options: partOptions, tracker: tracker)
            try Task.checkCancellation()
        } catch {
            // Runs outside the cancelled task, so the cancel request itself is sent.
            let uploads = self
            await Task.detached { _ = try? await uploads.cancel(uploadID: upload.id, options: options) }.value
            if error is CancellationError {
                throw OpenAIError(kind: .cancelled, message: "The upload \(upload.id) was cancelled.")
            }
            throw error
        }
        // Once `complete` is sent the Upload is no longer cancelled: it may have completed even
        // when the reply is lost or does not decode.
        return try await complete(uploadID: upload.id, CompleteUploadRequest(partIDs: ids), options: options)
    }

    /// The byte ranges of the parts: `partSize` each, the last one shorter; one empty part for an
    /// empty file.
    static func partRanges(size: Int64, partSize: Int64) -> [Range<Int64>] {
        guard size > 0 else { return [0..<0] }
        var ranges: [Range<Int64>] = []
        var start: Int64 = 0
        while start < size {
            ranges.append(start..<min(start + partSize, size))
            start += partSize
        }
        return ranges
    }

    /// Sends every part, at most `maxConcurrent` at once, and returns their ids in file order.
    private func sendParts(
        uploadID: String, fileURL: URL, filename: String, ranges: [Range<Int64>], maxConcurrent: Int,
        options: RequestOptions, tracker: PartProgressTracker
    ) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var ids = [String?](repeating: nil, count: ranges.count)
            var next = 0
            func startNext() {
                let index = next
                next += 1
                group.addTask {
                    let part = try await sendPart(
                        uploadID: uploadID, fileURL: fileURL, filename: filename, range: ranges[index], index: index,
                        options: options, tracker: tracker)
                    return (index, part.id)
                }
            }
            while next < min(maxConcurrent, ranges.count) { startNext() }
            while let (index, id) = try await group.next() {
                ids[index] = id
                if next < ranges.count { startNext() }
            }
            return ids.map { $0 ?? "" }
        }
    }

    /// Sends one part; the client's retry loop sends it again (alone) as `options.maxRetries`
    /// allows.
    private func sendPart(
        uploadID: String, fileURL: URL, filename: String, range: Range<Int64>, index: Int, options: RequestOptions,
        tracker: PartProgressTracker
    ) async throws -> UploadPart {
        try Task.checkCancellation()
        let data = try FileUpload(
            fileURL: fileURL, offset: range.lowerBound, length: Int64(range.count), filename: filename)
        var partOptions = options
        let length = Int64(range.count)
        partOptions.uploadProgress = { sent, total in
            // `sent` counts the multipart heads too: scale it to the part's file bytes. A retried
            // attempt starts again from 0.
            let fileBytes = total.map { $0 > 0 ? sent * length / $0 : 0 } ?? min(sent, length)
            tracker.update(part: index, bytes: fileBytes)
        }
        let part = try await parts.create(uploadID: uploadID, AddUploadPartRequest(data: data), options: partOptions)
        tracker.update(part: index, bytes: length)
        return part
    }
}

/// Sums the bytes sent by the parts in flight for ``UploadsAPI/uploadFileChunked(fileURL:purpose:mimeType:filename:partSize:maxConcurrentParts:maxPartAttempts:expiresAfter:options:progress:)``.
final class PartProgressTracker: Sendable {
    /// The bytes each part has sent.
    private let sent: Locked<[Int64]>
    private let total: Int64
    private let report: (@Sendable (UploadProgress) -> Void)?

    init(partCount: Int, total: Int64, report: (@Sendable (UploadProgress) -> Void)?) {
        self.sent = Locked(Array(repeating: 0, count: partCount))
        self.total = total
        self.report = report
    }

    func update(part: Int, bytes: Int64) {
        guard let report else { return }
        let sum: Int64 = sent.withLock { sent in
            sent[part] = bytes
            return sent.reduce(0, +)
        }
        report(UploadProgress(bytesSent: sum, totalBytes: total))
    }
}
