import Foundation
import OpenAIGeneratorCore

extension CommandArguments {
    /// The overrides `--overrides` names: `Spec/overrides.json` when the option is not given
    /// (none when that file is absent), none for `--overrides none`.
    ///
    /// - Returns: The overrides.
    /// - Throws: `MissingOverridesFile` when a path given with `--overrides` does not exist (a
    ///   mistyped path would otherwise generate without the corrections); ``Overrides/LoadingError``
    ///   when the file is invalid.
    func overrides() throws -> Overrides {
        let given = value("--overrides")
        if given == "none" { return Overrides() }
        let path = given ?? "Spec/overrides.json"
        if given != nil, !FileManager.default.fileExists(atPath: path) {
            throw MissingOverridesFile(path: path)
        }
        return try Overrides.load(from: path)
    }
}

/// A path given with `--overrides` that does not exist.
struct MissingOverridesFile: Error, CustomStringConvertible {
    var path: String

    var description: String { "\(path): no such overrides file (`--overrides none` generates without overrides)" }
}
