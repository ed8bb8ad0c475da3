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
            throw MissingOverridesFile(path: path, option: "--overrides")
        }
        return try Overrides.load(from: path)
    }
}

extension CommandArguments {
    /// The official CLI's command names `--cli-commands` names: `Spec/cli-commands.json` when the
    /// option is not given (none when that file is absent), none for `--cli-commands none`.
    ///
    /// - Throws: `MissingOverridesFile` when a path given with `--cli-commands` does not exist;
    ///   ``CommandNameTableError`` when the file is invalid.
    func commandNames() throws -> CommandNameTable {
        let given = value("--cli-commands")
        if given == "none" { return CommandNameTable() }
        let path = given ?? "Spec/cli-commands.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            if given != nil { throw MissingOverridesFile(path: path, option: "--cli-commands") }
            return CommandNameTable()
        }
        return try CommandNameTable(json: data, file: path)
    }
}

/// A path given with `--overrides` or `--cli-commands` that does not exist.
struct MissingOverridesFile: Error, CustomStringConvertible {
    var path: String
    /// The option that named it.
    var option: String

    var description: String {
        let what = option == "--overrides" ? "overrides file" : "file of command names"
        return "\(path): no such \(what) (`\(option) none` generates without it)"
    }
}
