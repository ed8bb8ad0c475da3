import Foundation

/// A temporary folder for an upload test, removed by ``remove()``, and the file it uploads.
struct UploadTestFolder {
    /// The folder: `<temporary folder>/<prefix>-<UUID>`.
    let url: URL

    /// Creates the folder.
    ///
    /// - Throws: The file system's error.
    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `train.jsonl` in the folder, `size` bytes of a repeating pattern: 3 MiB by default, over
    /// the 1 MiB a multipart body may hold in memory, so it is streamed.
    ///
    /// - Throws: The file system's error.
    func file(size: Int = 3 << 20) throws -> URL {
        let file = url.appendingPathComponent("train.jsonl")
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        try Data(bytes).write(to: file)
        return file
    }

    /// Removes the folder and what it holds.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
