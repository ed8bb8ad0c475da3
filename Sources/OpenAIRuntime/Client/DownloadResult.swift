import Foundation

/// The result of a download to a file: the `to:` variant of every operation that returns file
/// bytes (`client.files.content(fileID:to:)`, `client.audio.speech.create(_:to:)`, ...).
public struct DownloadResult: Sendable, Hashable {
    /// The file the body was written to.
    public var fileURL: URL
    /// The number of bytes written.
    public var byteCount: Int64
    /// The reply's status and headers, and how many attempts were made.
    public var response: RawResponse

    /// Creates a download result.
    ///
    /// - Parameters:
    ///   - fileURL: The file written.
    ///   - byteCount: The bytes written.
    ///   - response: The reply head.
    public init(fileURL: URL, byteCount: Int64, response: RawResponse) {
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.response = response
    }
}
