import Foundation

extension FileUpload {
    /// The filename given to in-memory bytes that come without one: `file` plus an extension
    /// guessed from the leading bytes (the "magic numbers" of the formats the API accepts), so
    /// the API, which tells formats by extension, accepts the upload.
    ///
    /// Recognised: PNG, JPEG, GIF, WebP, PDF, ZIP, WAV, FLAC, OGG, WebM, MP4/M4A, MP3; text (valid
    /// UTF-8 without control characters other than tab, LF, FF, CR) becomes `.jsonl` when every non-empty line is a JSON object, `.json` when
    /// it starts with `{` or `[`, `.txt` otherwise. Anything else is `file.bin`.
    ///
    /// - Parameter data: The bytes; only the first few are inspected, and all of them for text.
    /// - Returns: A name such as `file.png`.
    public static func defaultFilename(for data: Data) -> String {
        "file." + guessedExtension(for: data)
    }

    static func guessedExtension(for data: Data) -> String {
        let head = [UInt8](data.prefix(16))
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts(ascii("GIF8")) { return "gif" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "webp" }
        if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) { return "wav" }
        if starts(ascii("%PDF")) { return "pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return "zip" }
        if starts(ascii("fLaC")) { return "flac" }
        if starts(ascii("OggS")) { return "ogg" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "webm" }
        if starts(ascii("ftyp"), at: 4) {
            return starts(ascii("M4A"), at: 8) ? "m4a" : "mp4"
        }
        if starts(ascii("ID3")) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) {
            return "mp3"
        }
        // Text: valid UTF-8 without control characters other than tab, LF, FF and CR.
        let controls = data.contains { $0 < 0x09 || $0 == 0x0B || (0x0E...0x1F).contains($0) || $0 == 0x7F }
        guard !data.isEmpty, !controls, let text = String(data: data, encoding: .utf8) else { return "bin" }
        let lines = text.split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if !lines.isEmpty, lines.allSatisfy({ $0.hasPrefix("{") && $0.hasSuffix("}") }), lines.count > 1 {
            return "jsonl"
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return "json" }
        return "txt"
    }
}
