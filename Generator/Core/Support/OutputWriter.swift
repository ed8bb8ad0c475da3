import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes generated files into a folder so that a failure leaves it as it was, and unchanged
/// files keep their modification time (so incremental builds stay incremental).
public enum OutputWriter {
    /// The files in `folder` that differ from `files`: changed, missing, or stale (present but
    /// not generated). Paths are relative to `folder`.
    public static func differences(_ files: [GeneratedFile], in folder: URL) -> [String] {
        var result: [String] = []
        let expected = Set(files.map(\.path))
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            guard let data = try? Data(contentsOf: url), data == Data(file.contents.utf8) else {
                result.append(file.path)
                continue
            }
        }
        for existing in existingFiles(in: folder) where !expected.contains(existing) { result.append(existing) }
        return result.sorted()
    }

    /// Every regular file below `folder`, relative paths, sorted.
    public static func existingFiles(in folder: URL) -> [String] {
        guard
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        let base = folder.standardizedFileURL.path
        var result: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            result.append(String(path.dropFirst(base.count + 1)))
        }
        return result.sorted()
    }

    /// Makes `folder` hold exactly `files`: everything is first written to a staging folder
    /// beside it, then changed files are moved in and stale ones removed.
    ///
    /// - Returns: The number of files written or removed.
    /// - Throws: A file-system error; the output folder is not touched before staging succeeds.
    @discardableResult
    public static func write(_ files: [GeneratedFile], to folder: URL) throws -> Int {
        let manager = FileManager.default
        let changed = Set(differences(files, in: folder))
        if changed.isEmpty { return 0 }
        let parent = folder.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(
            ".\(folder.lastPathComponent).staging-\(ProcessInfo.processInfo.processIdentifier)")
        try? manager.removeItem(at: staging)
        defer { try? manager.removeItem(at: staging) }
        for file in files where changed.contains(file.path) {
            let url = staging.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
        }
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let expected = Set(files.map(\.path))
        for path in changed.sorted() {
            let destination = folder.appendingPathComponent(path)
            if expected.contains(path) {
                try manager.createDirectory(
                    at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                // rename(2) replaces the destination atomically.
                guard rename(staging.appendingPathComponent(path).path, destination.path) == 0 else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
                }
            } else {
                try manager.removeItem(at: destination)
            }
        }
        return changed.count
    }
}
