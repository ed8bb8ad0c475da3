import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where `--output` writes, decided the way users of `curl -o` and `install` expect:
///
/// - a new path, or a regular file: the reply goes to a temporary file in the same folder, renamed
///   over the destination once the command succeeds (a failed request leaves it as it was). An
///   existing file keeps its permission bits (a `0600` secret stays `0600`), and a file owned by
///   another user or with other hard links is refused unless `--force`: renaming over it would make
///   it the caller's, or split it from its other names;
/// - a FIFO or a character device (`/dev/null`, a terminal): opened and written directly, never
///   replaced by a regular file;
/// - a folder, a block device or a socket: refused.
///
/// A symbolic link is followed to its target, as a shell's `>` does.
package struct OutputDestination: Sendable, Equatable {
    /// How the destination is written.
    package enum Method: Sendable, Equatable {
        /// A temporary file beside ``OutputDestination/path``, renamed over it on success; `mode`
        /// holds the existing file's permission bits to keep (`nil` for a new file: `0666` less the
        /// umask).
        case replace(mode: UInt32?)
        /// ``OutputDestination/path`` itself, opened for writing (a FIFO or a character device).
        case direct
    }

    /// The destination, symbolic links resolved.
    package var path: String
    package var method: Method

    /// Decides how to write `given`.
    ///
    /// - Parameters:
    ///   - given: The path `--output` names (not `-`).
    ///   - force: `--force`: replace a regular file owned by another user or with other hard links.
    /// - Throws: ``CLIError/failure(_:)`` for a folder, a block device, a socket, a file it may not
    ///   replace without `force`, or a path that cannot be examined.
    package static func resolve(_ given: String, force: Bool) throws -> OutputDestination {
        let path = URL(fileURLWithPath: given).resolvingSymlinksInPath().path
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return OutputDestination(path: path, method: .replace(mode: nil)) }
            throw CLIError.failure("--output \(given): \(String(cString: strerror(code)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if !force, info.st_uid != geteuid() {
                throw CLIError.failure(
                    "--output \(given) belongs to another user (uid \(info.st_uid)): replacing it would make it "
                        + "yours; --force replaces it")
            }
            if !force, Int(info.st_nlink) > 1 {
                throw CLIError.failure(
                    "--output \(given) has \(info.st_nlink) hard links: replacing it would leave the other names "
                        + "with the old content; --force replaces this name only")
            }
            return OutputDestination(path: path, method: .replace(mode: UInt32(info.st_mode & 0o7777)))
        case S_IFIFO, S_IFCHR:
            return OutputDestination(path: path, method: .direct)
        case S_IFDIR:
            throw CLIError.failure("--output \(given) is a folder")
        default:
            throw CLIError.failure(
                "--output \(given) is a block device or a socket: the tool writes files, FIFOs and character devices")
        }
    }

    /// Opens what the reply is written to: a new temporary file beside ``path`` (with the kept
    /// permission bits), or ``path`` itself.
    ///
    /// - Returns: The handle, and the temporary file's path for ``settle(_:success:)`` (`nil` when
    ///   writing directly).
    /// - Throws: ``CLIError/failure(_:)`` when it cannot be opened.
    package func open() throws -> (handle: FileHandle, temporary: String?) {
        switch method {
        case .direct:
            let descriptor = Self.open(path, O_WRONLY)
            guard descriptor >= 0 else {
                throw CLIError.failure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), nil)
        case .replace(let mode):
            let temporary = Self.temporaryPath(for: path)
            let descriptor = Self.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
            guard descriptor >= 0 else {
                throw CLIError.failure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            if let mode, fchmod(descriptor, mode_t(mode)) != 0 {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw CLIError.failure("cannot give \(path)'s permissions to its new content: \(reason)")
            }
            return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), temporary)
        }
    }

    /// Ends a write: the temporary file renamed over ``path`` when the command succeeded, else
    /// removed; nothing to do when writing directly.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the rename fails (the temporary file is removed).
    package func settle(_ temporary: String?, success: Bool) throws {
        guard let temporary else { return }
        guard success else {
            unlink(temporary)
            return
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError.failure("cannot write \(path): \(reason)")
        }
    }

    /// Where a download into a file that is replaced (``Method/replace(mode:)``) is written before
    /// ``settleDownload(_:success:newFileMode:)``: a file beside ``path``. (A FIFO or a device is
    /// written directly.)
    package func downloadPath() -> String { Self.temporaryPath(for: path) }

    /// Ends a download written to `temporary` (``downloadPath()``, written while the umask let only
    /// the caller read it): on success the file gets the kept permission bits, or `newFileMode` for a
    /// new file, and is renamed over ``path``; on failure it is removed.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when it cannot be renamed.
    package func settleDownload(_ temporary: String, success: Bool, newFileMode: UInt32 = 0o644) throws {
        guard success, case .replace(let kept) = method else {
            unlink(temporary)
            return
        }
        if chmod(temporary, mode_t(kept ?? newFileMode)) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError.failure("cannot give \(path)'s permissions to its new content: \(reason)")
        }
        try settle(temporary, success: true)
    }

    /// A file name beside `path` for writing it in full before it replaces `path`.
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).openai-\(UUID().uuidString.prefix(8)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `open(2)` with `O_CLOEXEC`, retried on `EINTR`.
    private static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            #if canImport(Darwin)
                let descriptor = Darwin.open(path, flags | O_CLOEXEC, mode)
            #elseif canImport(Glibc)
                let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
            #else
                let descriptor = Musl.open(path, flags | O_CLOEXEC, mode)
            #endif
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }
}
