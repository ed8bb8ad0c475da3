/// How one generation's files, a single tree, go into folders on disk.
///
/// The tree holds the `OpenAI` module's files at its root, the `OpenAIAdmin` module's below
/// `Admin/` and the `openai` tool's catalogue below `Catalogue/` (``SDKModule/folder``,
/// ``CatalogueRenderer``). In this package each of those is a target with a folder of its own
/// (its `Generated` folder: `Sources/OpenAIAdmin/Generated`, `Sources/OpenAICatalogue/Generated`); a generation into a folder of its own
/// keeps the whole tree there. Each folder the generator writes has its own manifest
/// (``OutputWriter``), so it owns each one separately.
public enum OutputLayout {
    /// A part of the tree that is a target of its own.
    public struct TargetFolder: Sendable {
        /// Its folder in the tree (`Admin/`).
        public var prefix: String
        /// The target whose sources it is (`OpenAIAdmin`): the name of its folder under `Sources/`.
        public var target: String
    }

    /// The parts of the tree that are targets of their own.
    public static let targetFolders = [
        TargetFolder(prefix: SDKModule.admin.folder, target: "OpenAIAdmin"),
        TargetFolder(prefix: "Catalogue/", target: "OpenAICatalogue"),
    ]

    /// Splits `files`, the whole tree with its manifest, into the files of each folder.
    ///
    /// - Parameters:
    ///   - files: The generation's files.
    ///   - prefixes: The parts of the tree (``TargetFolder/prefix``) that go to folders of their
    ///     own.
    ///   - sha256: The spec's hash, for each manifest.
    /// - Returns: The rest of the tree first (its root), then the files of each prefix in the
    ///   order given, relative to the prefix; each part with a manifest of its own listing its
    ///   files. With no prefixes, `files` as they are.
    public static func split(_ files: [GeneratedFile], placing prefixes: [String], sha256: String?)
        -> [[GeneratedFile]]
    {
        guard !prefixes.isEmpty else { return [files] }
        var parts = Array(repeating: [GeneratedFile](), count: prefixes.count + 1)
        for file in files where file.path != OutputWriter.manifestName {
            if let index = prefixes.firstIndex(where: { file.path.hasPrefix($0) }) {
                let relative = String(file.path.dropFirst(prefixes[index].count))
                parts[index + 1].append(GeneratedFile(path: relative, contents: file.contents))
            } else {
                parts[0].append(file)
            }
        }
        return parts.map { $0 + [SwiftGenerator.manifest($0, sha256: sha256)] }
    }
}
