// Fuzz target: the generator's front end on a spec file's bytes (Sources/OpenAIYAML: libyaml events to
// a node tree; Generator/OpenAPI: the loader; then the translate and render stages).
//
// The input is a spec file (YAML or JSON). Invariants:
// - loading throws nothing but `OpenAPIError`, whose location has a line and column from 1, a
//   JSON pointer starting with `#` and the spec's file (STYLE.md habit 5: an unreadable document
//   is the one fatal case, and it says where);
// - a document that loads translates and renders without trapping, every diagnostic located the
//   same way (or in the overrides' file), every file path relative and inside the output folder.

import OpenAIGeneratorCore
import OpenAIGeneratorOpenAPI

func checkLocation(_ location: SourceLocation, _ what: String) {
    invariant(location.mark.line >= 1 && location.mark.column >= 1, "\(what) at \(location.mark)")
    invariant(location.pointer.hasPrefix("#"), "\(what) at pointer \(location.pointer.debugDescription)")
    // Diagnostics about the overrides (a streaming operation without a `stream-endings` entry) name their file.
    let files = ["fuzz.yaml", GeneratorPipeline().configuration.overrides.source]
    invariant(files.contains(location.file), "\(what) in file \(location.file.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let pipeline = GeneratorPipeline()
    let document: OpenAPIDocument
    do {
        document = try pipeline.load(bytes, file: "fuzz.yaml")
    } catch let error as OpenAPIError {
        checkLocation(error.location, "the error \(error.message.debugDescription)")
        return 0
    } catch {
        invariant(false, "load threw \(type(of: error)), not OpenAPIError")
        return 0
    }
    let result: GenerationResult
    do {
        result = try pipeline.run(bytes, file: "fuzz.yaml", sha256: String(repeating: "0", count: 64))
    } catch let error as OpenAPIError {
        checkLocation(error.location, "the error \(error.message.debugDescription)")
        return 0
    } catch {
        invariant(false, "run threw \(type(of: error)), not OpenAPIError")
        return 0
    }
    _ = document
    for diagnostic in result.diagnostics {
        checkLocation(diagnostic.location, "the diagnostic \(diagnostic.message.debugDescription)")
    }
    for file in result.files {
        let components = file.path.split(separator: "/", omittingEmptySubsequences: false)
        invariant(
            !file.path.hasPrefix("/") && !components.contains("..") && !components.contains(""),
            "a generated file at \(file.path.debugDescription)")
    }
    return 0
}
