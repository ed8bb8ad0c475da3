import Foundation
import GeneratorCore
import OpenAPI

// openai-generator: generate, check (and later diff) the Swift SDK from the OpenAI spec.
//
// Exit status: 0 success; 1 invalid spec, or `check` found drift; 2 usage error; 3 I/O error.

let usage = """
    usage: openai-generator generate [--spec PATH] [--output DIR] [--access public|package|internal] [--overrides PATH] [--force] [--strict] [--line-cap N]
           openai-generator check    [--spec PATH] [--output DIR] [--lock PATH] [--overrides PATH] [--line-cap N]
           openai-generator diff OLD NEW [--format text|markdown|json] [--fail-on breaking|warning|any|none]

    Defaults: --spec Spec/openapi.yaml, --output Sources/OpenAI/Generated, --lock Spec/lock.json,
    --overrides Spec/overrides.json (skipped when absent).
    generate writes only into an empty folder or one it wrote before (its Manifest.swift), and
    replaces or removes only its own files; --force writes into another folder (still touching only
    its own files, and replacing others at generated paths); --strict fails on any warning
    (exit status 1, the output folder left as it was); --line-cap sets the most lines per types file
    (default 4000, measured: see README "Build cost").
    Exit status: 0 success; 1 invalid spec or drift found by check; 2 usage error; 3 I/O error.
    """

struct Options {
    var command = ""
    var spec = "Spec/openapi.yaml"
    var output = "Sources/OpenAI/Generated"
    var access = "public"
    var lock = "Spec/lock.json"
    var overrides = "Spec/overrides.json"
    var force = false
    var strict = false
    var lineCap = 4000
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

func parseArguments() -> Options {
    var options = Options()
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else { fail(usage, status: 2) }
    if command == "--help" || command == "-h" {
        print(usage)
        exit(0)
    }
    options.command = command
    arguments.removeFirst()
    while let flag = arguments.first {
        arguments.removeFirst()
        if flag == "--force" {
            options.force = true
            continue
        }
        if flag == "--strict" {
            options.strict = true
            continue
        }
        guard let value = arguments.first else { fail("missing value for \(flag)\n\(usage)", status: 2) }
        arguments.removeFirst()
        switch flag {
        case "--spec": options.spec = value
        case "--output": options.output = value
        case "--access":
            guard ["public", "package", "internal"].contains(value) else {
                fail("invalid --access \(value)", status: 2)
            }
            options.access = value
        case "--lock": options.lock = value
        case "--line-cap":
            guard let cap = Int(value), cap >= 100 else {
                fail("invalid --line-cap \(value) (at least 100)", status: 2)
            }
            options.lineCap = cap
        case "--overrides": options.overrides = value
        default: fail("unknown option \(flag)\n\(usage)", status: 2)
        }
    }
    return options
}

func run(_ options: Options) -> Int32 {
    let start = Date()
    guard let specData = FileManager.default.contents(atPath: options.spec) else {
        fail("\(options.spec): cannot read the spec (run Scripts/fetch-spec.sh for the locked one)", status: 3)
    }
    let bytes = [UInt8](specData)
    let sha256 = SHA256.hex(bytes)
    let overrides: Overrides
    do {
        overrides = try Overrides.load(from: options.overrides)
    } catch {
        fail("\(error)", status: 1)
    }
    let configuration = GeneratorConfiguration(
        access: options.access, lineCap: options.lineCap, overrides: overrides)
    let result: GenerationResult
    do {
        result = try SwiftGenerator.generate(
            specBytes: bytes, specFile: options.spec, sha256: sha256, configuration: configuration)
    } catch let error as OpenAPIError {
        fail("\(error)\nThe output folder was not changed.", status: 1)
    } catch {
        fail("\(error)", status: 1)
    }
    let output = URL(fileURLWithPath: options.output)
    switch options.command {
    case "generate":
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        if options.strict && !warnings.isEmpty {
            for diagnostic in warnings { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
            fail(
                "generate --strict: \(warnings.count) warning(s); the output folder was not changed.", status: 1)
        }
        let written: Int
        do {
            written = try OutputWriter.write(result.files, to: output, force: options.force)
        } catch let error as OutputWriter.OwnershipError {
            fail("\(error)\nThe output folder was not changed.", status: 1)
        } catch {
            fail("cannot write \(options.output): \(error)", status: 3)
        }
        for diagnostic in result.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
        var byKind: [String: Int] = [:]
        for diagnostic in warnings { byKind[diagnostic.kind.rawValue, default: 0] += 1 }
        let lines = result.files.reduce(0) { $0 + $1.contents.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 } }
        print("openai-generator \(SwiftGenerator.version): \(options.spec) (sha256 \(sha256))")
        print("operations: \(result.operationCount) (methods: \(result.operationCount))")
        print(
            "schemas: \(result.schemaCount); types: \(result.typeCount) (inline schemas emitted as an equal component: \(result.reusedComponents))"
        )
        print("files: \(result.files.count) (\(lines) lines) in \(options.output); \(written) changed")
        print("warnings: \(warnings.count); notes: \(result.diagnostics.count - warnings.count)")
        for kind in byKind.keys.sorted() { print("  \(kind): \(byKind[kind]!)") }
        print(
            "streaming variants: \(result.streamingOperations); incomplete: \(result.incompleteOperations.count)\(result.incompleteOperations.isEmpty ? "" : " (" + result.incompleteOperations.joined(separator: ", ") + ")")"
        )
        print(String(format: "time: %.3f s", Date().timeIntervalSince(start)))
        return 0
    case "check":
        var problems: [String] = []
        if let data = FileManager.default.contents(atPath: options.lock),
            let lock = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let locked = lock["sha256"] as? String
        {
            if locked != sha256 {
                problems.append("\(options.spec): sha256 \(sha256) differs from the lock's \(locked) (\(options.lock))")
            }
        } else {
            problems.append("\(options.lock): cannot read the lock's sha256")
        }
        for difference in OutputWriter.differences(result.files, in: output) {
            problems.append("\(options.output)/\(difference)")
        }
        if problems.isEmpty {
            print(
                String(
                    format: "check: %d generated files match %@ (%.3f s)", result.files.count, options.spec,
                    Date().timeIntervalSince(start)))
            return 0
        }
        for problem in problems { print(problem) }
        print("check: \(problems.count) problem(s); run Scripts/regenerate.sh and commit the result")
        return 1
    default:
        fail("unknown command \(options.command)\n\(usage)", status: 2)
    }
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "diff" {
    exit(runDiff(arguments: Array(CommandLine.arguments.dropFirst(2))))
}
exit(run(parseArguments()))
