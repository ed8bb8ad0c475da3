import Foundation
import XCTest

/// Locates `../shared` (the spec versions and recorded fixtures) beside the package root.
package enum SharedData {
    /// The package root: three levels above this file (`Tests/OpenAISDKTestSupport/SharedData.swift`).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared`, or `nil` when it is not there.
    package static var folder: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The file at `path` below `../shared`; skips the calling test, saying why, when missing.
    package static func file(_ path: String) throws -> URL {
        guard let folder else {
            throw Unavailable.skip("../shared is missing beside the package root; this test reads \(path) from it")
        }
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Unavailable.skip("../shared/\(path) is missing")
        }
        return url
    }

    /// The spec the tests compare the generated code with: `Spec/openapi.yaml` (put there by
    /// `Scripts/spec/fetch-spec.sh`, or by `Scripts/spec/update-spec.sh` while it tries a new spec; that it
    /// is the one `Sources/OpenAI/Generated/` came from is what `openai-generator check`
    /// verifies), else `../shared/spec/openapi.yaml`; skips the calling test when neither is there.
    package static func generatedFromSpec() throws -> URL {
        let local = packageRoot.appendingPathComponent("Spec/openapi.yaml")
        if FileManager.default.fileExists(atPath: local.path) { return local }
        return try file("spec/openapi.yaml")
    }
}
