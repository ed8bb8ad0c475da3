import Foundation
import OpenAIRuntime

// `poll` and `createAndPoll` for the objects the API finishes in the background, as OpenAI's SDKs
// have them. Each polls its `retrieve` method until the object's `status` leaves the pending
// states listed on it; a status this SDK does not know ends the polling (it is returned, never
// waited on for ever). Waits follow ``PollingOptions``: the reply's `openai-poll-after-ms`, else
// 1 second, at most `maxWait` in all.

extension ThreadsRunsAPI {
    /// Polls a run until it is no longer `queued`, `in_progress` or `cancelling`: it completed,
    /// failed, was cancelled, expired, is incomplete, or `requires_action` (tool outputs to submit).
    ///
    /// - Parameters:
    ///   - threadID: The thread's id.
    ///   - runID: The run's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The run in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(threadID:runID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    @available(*, deprecated, message: "The Assistants API is deprecated.")
    public func poll(
        threadID: String, runID: String, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> RunObject {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(threadID: threadID, runID: runID, options: options)
        } isPending: {
            ["queued", "in_progress", "cancelling"].contains($0.status.rawValue)
        }
    }

    /// Creates a run and polls it (``poll(threadID:runID:polling:options:)``).
    ///
    /// - Throws: What ``create(threadID:_:include:options:)`` and the polling throw.
    @available(*, deprecated, message: "The Assistants API is deprecated.")
    public func createAndPoll(
        threadID: String, _ body: CreateRunRequest, include: [String]? = nil,
        polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> RunObject {
        let run = try await create(threadID: threadID, body, include: include, options: options)
        return try await poll(threadID: threadID, runID: run.id, polling: polling, options: options)
    }
}

extension VectorStoresFilesAPI {
    /// Polls a vector-store file until it is no longer `in_progress`: `completed`, `failed`
    /// (see its `last_error`) or `cancelled`.
    ///
    /// - Parameters:
    ///   - vectorStoreID: The vector store's id.
    ///   - fileID: The file's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The file in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(vectorStoreID:fileID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    public func poll(
        vectorStoreID: String, fileID: String, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VectorStoreFileObject {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(vectorStoreID: vectorStoreID, fileID: fileID, options: options)
        } isPending: {
            $0.status.rawValue == "in_progress"
        }
    }

    /// Attaches a file to a vector store and polls it until it is processed.
    ///
    /// - Throws: What ``create(vectorStoreID:_:options:)`` and the polling throw.
    public func createAndPoll(
        vectorStoreID: String, _ body: CreateVectorStoreFileRequest, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VectorStoreFileObject {
        let file = try await create(vectorStoreID: vectorStoreID, body, options: options)
        return try await poll(vectorStoreID: vectorStoreID, fileID: file.id, polling: polling, options: options)
    }

    /// Uploads a file (`purpose: assistants`), attaches it to a vector store and polls it until
    /// it is processed: the three steps of adding a document to file search.
    ///
    /// - Parameters:
    ///   - vectorStoreID: The vector store's id.
    ///   - file: The file's bytes, from memory or disk, with its filename.
    ///   - attributes: Attributes of the file in the vector store, for filtering.
    ///   - chunkingStrategy: How the file is chunked; `nil`: the API's `auto`.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request; an
    ///     idempotency key `k` is sent as `k-upload` and `k-attach` on the two POSTs.
    /// - Returns: The vector-store file in its first state that is not pending.
    /// - Throws: What `client.files.create`, ``create(vectorStoreID:_:options:)`` and the polling
    ///   throw.
    public func uploadAndPoll(
        vectorStoreID: String, file: FileUpload, attributes: VectorStoreFileAttributes? = nil,
        chunkingStrategy: ChunkingStrategyRequestParam? = nil, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VectorStoreFileObject {
        // Two different POSTs: an idempotency key `k` goes as `k-upload` and `k-attach`.
        let uploaded = try await client.files.create(
            CreateFileRequest(file: file, purpose: .assistants), options: options.forStep("upload"))
        return try await createAndPoll(
            vectorStoreID: vectorStoreID,
            CreateVectorStoreFileRequest(
                fileID: uploaded.id, chunkingStrategy: chunkingStrategy, attributes: attributes),
            polling: polling, options: options.forStep("attach"))
    }
}

extension VectorStoresFileBatchesAPI {
    /// Polls a vector-store file batch until it is no longer `in_progress`.
    ///
    /// - Parameters:
    ///   - vectorStoreID: The vector store's id.
    ///   - batchID: The batch's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The batch in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(vectorStoreID:batchID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    public func poll(
        vectorStoreID: String, batchID: String, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VectorStoreFileBatchObject {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(vectorStoreID: vectorStoreID, batchID: batchID, options: options)
        } isPending: {
            $0.status.rawValue == "in_progress"
        }
    }

    /// Creates a vector-store file batch and polls it until its files are processed.
    ///
    /// - Throws: What ``create(vectorStoreID:_:options:)`` and the polling throw.
    public func createAndPoll(
        vectorStoreID: String, _ body: CreateVectorStoreFileBatchRequest, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VectorStoreFileBatchObject {
        let batch = try await create(vectorStoreID: vectorStoreID, body, options: options)
        return try await poll(vectorStoreID: vectorStoreID, batchID: batch.id, polling: polling, options: options)
    }
}

extension BatchesAPI {
    /// Polls a batch until it is no longer `validating`, `in_progress`, `finalizing` or
    /// `cancelling`: `completed`, `failed`, `expired` or `cancelled`. Batches take up to their
    /// completion window (24 hours): pass a `maxWait`, or an `interval` of minutes.
    ///
    /// - Parameters:
    ///   - batchID: The batch's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The batch in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(batchID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    public func poll(
        batchID: String, polling: PollingOptions = PollingOptions(), options: RequestOptions = RequestOptions()
    ) async throws -> Batch {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(batchID: batchID, options: options)
        } isPending: {
            ["validating", "in_progress", "finalizing", "cancelling"].contains($0.status.rawValue)
        }
    }

    /// Creates a batch and polls it (``poll(batchID:polling:options:)``).
    ///
    /// - Throws: What ``create(_:options:)`` and the polling throw.
    public func createAndPoll(
        _ body: CreateBatchRequest, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> Batch {
        let batch = try await create(body, options: options)
        return try await poll(batchID: batch.id, polling: polling, options: options)
    }
}

extension VideosAPI {
    /// Polls a video until it is no longer `queued` or `in_progress`: `completed` (download it
    /// with the content method) or `failed`.
    ///
    /// - Parameters:
    ///   - videoID: The video's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The video in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(videoID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    @available(*, deprecated, message: "The spec deprecates the Videos API's operations.")
    public func poll(
        videoID: String, polling: PollingOptions = PollingOptions(), options: RequestOptions = RequestOptions()
    ) async throws -> VideoResource {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(videoID: videoID, options: options)
        } isPending: {
            ["queued", "in_progress"].contains($0.status.rawValue)
        }
    }

    /// Creates a video and polls it until it is rendered or failed.
    ///
    /// - Throws: What ``create(_:options:)`` and the polling throw.
    @available(*, deprecated, message: "The spec deprecates the Videos API's operations.")
    public func createAndPoll(
        _ body: CreateVideoJSONBody, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VideoResource {
        let video = try await create(body, options: options)
        return try await poll(videoID: video.id, polling: polling, options: options)
    }

    /// Creates a video from a `multipart/form-data` body (with an input reference image) and
    /// polls it until it is rendered or failed.
    ///
    /// - Throws: What ``create(multipart:options:)`` and the polling throw.
    @available(*, deprecated, message: "The spec deprecates the Videos API's operations.")
    public func createAndPoll(
        multipart body: CreateVideoMultipartBody, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> VideoResource {
        let video = try await create(multipart: body, options: options)
        return try await poll(videoID: video.id, polling: polling, options: options)
    }
}

extension FineTuningJobsAPI {
    /// Polls a fine-tuning job until it is no longer `validating_files`, `queued` or `running`:
    /// `succeeded`, `failed` or `cancelled`.
    ///
    /// - Parameters:
    ///   - fineTuningJobID: The job's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The job in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(fineTuningJobID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    public func poll(
        fineTuningJobID: String, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> FineTuningJob {
        try await client.poll(polling, status: \.status.rawValue) { client in
            try await Self(client: client).retrieve(fineTuningJobID: fineTuningJobID, options: options)
        } isPending: {
            ["validating_files", "queued", "running"].contains($0.status.rawValue)
        }
    }

    /// Creates a fine-tuning job and polls it (``poll(fineTuningJobID:polling:options:)``).
    ///
    /// - Throws: What ``create(_:options:)`` and the polling throw.
    public func createAndPoll(
        _ body: CreateFineTuningJobRequest, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> FineTuningJob {
        let job = try await create(body, options: options)
        return try await poll(fineTuningJobID: job.id, polling: polling, options: options)
    }
}

extension EvalsRunsAPI {
    /// Polls an eval run until it is no longer `queued` or `in_progress`: `completed`, `failed`
    /// or `canceled`.
    ///
    /// - Parameters:
    ///   - evalID: The eval's id.
    ///   - runID: The run's id.
    ///   - polling: The interval and the longest wait.
    ///   - options: Per-request headers, query items, timeout and retries, for every request.
    /// - Returns: The run in its first state that is not pending.
    /// - Throws: ``OpenAIError`` as ``retrieve(evalID:runID:options:)`` does, or of kind
    ///   ``OpenAIError/Kind/timeout`` when `maxWait` would pass; `CancellationError`.
    public func poll(
        evalID: String, runID: String, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> EvalRun {
        try await client.poll(polling, status: \.status) { client in
            try await Self(client: client).retrieve(evalID: evalID, runID: runID, options: options)
        } isPending: {
            ["queued", "in_progress"].contains($0.status)
        }
    }

    /// Creates an eval run and polls it (``poll(evalID:runID:polling:options:)``).
    ///
    /// - Throws: What ``create(evalID:_:options:)`` and the polling throw.
    public func createAndPoll(
        evalID: String, _ body: CreateEvalRunRequest, polling: PollingOptions = PollingOptions(),
        options: RequestOptions = RequestOptions()
    ) async throws -> EvalRun {
        let run = try await create(evalID: evalID, body, options: options)
        return try await poll(evalID: evalID, runID: run.id, polling: polling, options: options)
    }
}
