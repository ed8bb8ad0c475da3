import Foundation
import OpenAIRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One operation call of the command line: the request built from the input, sent the way its reply
/// needs (JSON, pages, a stream, bytes), the reply printed.
struct OperationCall {
    var call: Invocation.Call
    var input: RequestInput
    var client: OpenAIClient
    var terminal: Terminal

    var operation: APIOperation { call.operation }

    func run() async throws {
        let printer = ReplyPrinter(
            format: call.globals.format, transform: try call.globals.transform.map(Transform.init), terminal: terminal)
        if printer.format == .raw, call.globals.transform != nil {
            throw CLIError.usage(
                "--transform does not combine with --format raw: it picks from JSON values, raw prints bytes")
        }
        var options = RequestOptions()
        let upload = input.files.isEmpty ? nil : ProgressBar(terminal: terminal, label: "upload")
        if let upload { options.uploadProgress = { sent, total in upload.update(sent, total) } }
        let streaming = input.asksForStream(operation)
        if operation.reply == .binary, !streaming, let output = call.output, output != "-" {
            try await download(to: output, options: options, upload: upload)
            return
        }
        if let output = call.output, output != "-" { try terminal.redirect(to: output, force: call.force) }
        if operation.reply == .binary, !streaming, terminal.outputIsTerminal {
            throw CLIError.usage(
                "`openai \(operation.command)` replies with binary data: give --output FILE or pipe it",
                usage: Help.usage(operation))
        }
        if streaming {
            try await stream(options: options, printer: printer, upload: upload)
            return
        }
        if operation.reply == .json, operation.page != nil {
            try await pages(options: options, printer: printer)
            return
        }
        if operation.reply == .binary
            || (operation.reply == .json && printer.transform == nil && call.maxItems == nil
                && printer.effectiveFormat != .yaml)
        {
            try await printAsItArrives(options: options, printer: printer, upload: upload)
            return
        }
        let response = try await ending(upload) {
            try await client.sendRaw(try input.request(for: operation), options: options)
        }
        switch operation.reply {
        case .binary: try terminal.write(response.body)
        case .text: try writeText(response.body, printer: printer)
        case .none: break
        case .json: try printJSONReply(response, printer: printer)
        }
    }

    /// Writes a binary reply to `output` without holding it in memory, as ``OutputDestination``
    /// decides: a regular file through a temporary file beside it, renamed over it once the whole
    /// reply has arrived (a failed download leaves `output` as it was); a FIFO or a device directly,
    /// each chunk as it arrives.
    private func download(to output: String, options: RequestOptions, upload: ProgressBar?) async throws {
        var options = options
        let destination = try OutputDestination.resolve(output, force: call.force)
        guard destination.method != .direct else {
            return try await downloadDirectly(into: destination, options: options, upload: upload)
        }
        let temporary = destination.downloadPath()
        // While it arrives the download is readable by the caller only (a 0600 secret must not sit at
        // 0644 beside its destination); it gets its mode when it is whole.
        let mask = umask(0o077)
        defer { umask(mask) }
        let newFileMode = 0o666 & ~UInt32(mask)
        let bar = ProgressBar(terminal: terminal, label: "download")
        options.downloadProgress = { received, total in bar.update(received, total) }
        do {
            let result = try await client.sendForFile(
                try input.request(for: operation), to: URL(fileURLWithPath: temporary), options: options)
            upload?.end()
            bar.end()
            try destination.settleDownload(temporary, success: true, newFileMode: newFileMode)
            terminal.error("wrote \(result.byteCount) bytes to \(output)")
        } catch {
            upload?.end()
            bar.end()
            try? destination.settleDownload(temporary, success: false)
            throw error
        }
    }

    /// What `send` returns, the upload's progress bar ended once it has (the reply head arrived, or
    /// the request failed).
    private func ending<Reply>(_ upload: ProgressBar?, _ send: () async throws -> Reply) async throws -> Reply {
        defer { upload?.end() }
        return try await send()
    }

    /// Writes a binary reply into a FIFO or a device as its chunks arrive (a reader at the other end
    /// gets them at once; nothing is held, nor written to a temporary file).
    private func downloadDirectly(into destination: OutputDestination, options: RequestOptions, upload: ProgressBar?)
        async throws
    {
        let response = try await ending(upload) {
            try await client.openReply(try input.request(for: operation), options: options)
        }
        let (handle, _) = try destination.open()
        defer { try? handle.close() }
        let bar = ProgressBar(terminal: terminal, label: "download")
        defer { bar.end() }
        let total = response.value(forHeader: "Content-Length").flatMap { Int64($0) }
        var received: Int64 = 0
        for try await chunk in response.body {
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw CLIError.failure("cannot write \(destination.path): \(error.localizedDescription)")
            }
            received += Int64(chunk.count)
            bar.update(received, total)
        }
        terminal.error("wrote \(received) bytes to \(destination.path)")
    }

    /// Prints a reply as its bytes arrive, holding none of it whole: binary bytes and `--format raw`
    /// as they came, JSON reformatted on the fly (``JSONStreamPrinter``); a `text/*` reply (a
    /// transcription asked for as text) is read whole and written as ``writeText(_:printer:)`` does.
    ///
    /// - Throws: ``CLIError/failure(_:)`` for a JSON reply that is not JSON (after what came before
    ///   the error was printed); ``OpenAIError`` for the request.
    private func printAsItArrives(options: RequestOptions, printer: ReplyPrinter, upload: ProgressBar?) async throws {
        let response = try await ending(upload) {
            try await client.openReply(try input.request(for: operation), options: options)
        }
        let type = (response.value(forHeader: "Content-Type") ?? "").lowercased()
        let format = printer.effectiveFormat
        if operation.reply == .binary || format == .raw {
            for try await chunk in response.body { try terminal.write(chunk) }
            return
        }
        if type.hasPrefix("text/") {
            var body = Data()
            for try await chunk in response.body { body.append(chunk) }
            return try writeText(body, printer: printer)
        }
        let terminal = terminal
        var json = JSONStreamPrinter(indented: format != .jsonl, colors: format == .pretty && terminal.colors) {
            try terminal.write($0)
        }
        var received = 0
        do {
            for try await chunk in response.body {
                received += chunk.count
                try json.consume(chunk)
            }
            try json.finish()
        } catch let error as JSONSyntaxError {
            let what = received == 0 ? "empty" : "not JSON (\(error))"
            throw CLIError.failure(
                "the reply (\(type.isEmpty ? "no Content-Type" : type), \(received) bytes) is \(what)")
        }
    }

    /// Writes a text reply: as it came to a file or a pipe, and with `--format raw`; on a terminal
    /// with its control characters other than newline and tab escaped (``OpenAITool/printable(_:)``),
    /// so that a server cannot drive the terminal (OSC 52 writing the clipboard, a title, clearing
    /// the screen).
    private func writeText(_ body: Data, printer: ReplyPrinter) throws {
        guard terminal.outputIsTerminal, printer.format != .raw else { return try terminal.write(body) }
        try terminal.write(Data(OpenAITool.printable(String(decoding: body, as: UTF8.self)).utf8))
    }

    /// Prints a JSON reply; a `text/*` reply (a transcription asked for as text) as it came.
    ///
    /// - Throws: ``CLIError/failure(_:)`` for a reply that is neither JSON nor text.
    private func printJSONReply(_ response: HTTPResponse, printer: ReplyPrinter) throws {
        let type = (response.value(forHeader: "Content-Type") ?? "").lowercased()
        if printer.effectiveFormat == .raw || type.hasPrefix("text/") {
            try writeText(response.body, printer: printer)
            return
        }
        do {
            var reply = try JSON.parse(response.body)
            // `--max-items` on a list reply that does not page (`models list`): its first items.
            if let maxItems = call.maxItems, let items = reply["data"]?.array, items.count > maxItems {
                reply = reply.setting("data", .array(Array(items.prefix(maxItems))))
            }
            try printer.print(reply)
        } catch let error as JSONSyntaxError {
            let what = response.body.isEmpty ? "empty" : "not JSON (\(error))"
            throw CLIError.failure(
                "the reply (\(type.isEmpty ? "no Content-Type" : type), \(response.body.count) bytes) is \(what)")
        }
    }

    // MARK: Paging

    /// Fetches pages until the last one or `--max-items` (``PageWalker``), then prints the first
    /// page with every item; `jsonl` prints each item as its page arrives, `raw` each page's bytes.
    private func pages(options: RequestOptions, printer: ReplyPrinter) async throws {
        guard let page = operation.page else { return }
        let format = printer.effectiveFormat
        var walker = PageWalker(page: page, maxItems: call.maxItems, keepsItems: format != .jsonl && format != .raw)
        let (client, input, operation) = (client, input, operation)
        let pages = client.pages { cursor in
            let response = try await client.sendRaw(try input.request(for: operation, cursor: cursor), options: options)
            return JSONPage(reply: try JSON.parse(response.body), body: response.body, page: page)
        }
        for try await fetched in pages {
            if format == .raw {
                try terminal.write(fetched.body)
                if fetched.body.last != 0x0A { try terminal.write(Data("\n".utf8)) }
            }
            let items = walker.take(fetched)
            if format == .jsonl { for item in items { try printer.print(item, oneLine: true) } }
            if walker.isFull { break }
        }
        if format != .jsonl, format != .raw, let merged = walker.merged { try printer.print(merged) }
        if call.maxItems == nil, walker.count >= PageWalker.defaultMaxItems, walker.more {
            terminal.error(
                "note: stopped after \(PageWalker.defaultMaxItems) items, the default --max-items; give --max-items N "
                    + "for more")
        }
    }

    // MARK: Streaming

    /// Prints each event as one JSON line (`--format raw`: the bytes as received), and fails with
    /// status 7 when the stream ends before what completes it. A reply that is not an event stream
    /// (a server that answers JSON) is printed as a JSON reply.
    private func stream(options: RequestOptions, printer: ReplyPrinter, upload: ProgressBar?) async throws {
        let raw = printer.effectiveFormat == .raw
        let reader = EventStreamReader(client: client, operation: operation)
        let terminal = terminal
        let write: @Sendable (Data) throws -> Void = { chunk in try terminal.write(chunk) }
        let bytes = raw ? write : nil
        let skipped: @Sendable (SkippedStreamEvent) -> Void = { skipped in
            terminal.error("note: skipped an event whose data is not JSON (\(skipped.event.data.utf8.count) bytes)")
        }
        let outcome = try await reader.read(
            try input.request(for: operation), options: options, maxEvents: call.maxItems, opened: { upload?.end() },
            bytes: bytes, skipped: skipped,
            event: { (event: JSON) throws -> Void in
                guard !raw else { return }
                try printer.printEvent(event)
            })
        if case .notAStream(let response) = outcome { try printJSONReply(response, printer: printer) }
    }
}
