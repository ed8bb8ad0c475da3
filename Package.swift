// swift-tools-version:6.0
import PackageDescription

// Every target's name starts with `OpenAI` (`openai-` for executables): SwiftPM wants target names
// unique across an app's whole package graph, and generic ones (`YAML`, `CYaml`, `TestSupport`)
// are declared by other packages too.
let package = Package(
    name: "swift-openai",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // Every operation called with a project API key, its types, and the runtime.
        .library(name: "OpenAI", targets: ["OpenAI"]),
        // The admin-key resources (`client.organization`, `client.projects`) and the types only they use.
        .library(name: "OpenAIAdmin", targets: ["OpenAIAdmin"]),
        .library(name: "OpenAIRealtime", targets: ["OpenAIRealtime"]),
        .executable(name: "openai-generator", targets: ["openai-generator"]),
        // The OpenAI API from the shell, in the official CLI's grammar: every operation of the spec
        // as a command, read from the generated catalogue (it does not compile the typed SDK).
        .executable(name: "openai", targets: ["openai-cli"]),
    ],
    targets: [
        // MARK: SDK
        // The generated types and methods and the helpers written against them, on the runtime,
        // which this module re-exports: `import OpenAI` is all a caller writes.
        .target(
            name: "OpenAI",
            dependencies: ["OpenAIRuntime"],
            path: "Sources/OpenAI"
        ),
        // Everything the generated code is built on (client, transport, retries, errors, coding,
        // multipart, pagination, webhooks, server-sent events, the hand-written substitute types):
        // it compiles without the generated code, so the compiler keeps the layer.
        .target(
            name: "OpenAIRuntime",
            dependencies: [.target(name: "OpenAIRuntimeLibcurl", condition: .when(platforms: [.linux]))],
            path: "Sources/OpenAIRuntime"
        ),
        // libcurl loaded at run time (the libcurl.so.4 FoundationNetworking links) for direct
        // uploads on Linux; building it needs no libcurl development package.
        .target(
            name: "OpenAIRuntimeLibcurl",
            path: "Sources/CLibcurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "OpenAIAdmin",
            dependencies: ["OpenAI"],
            path: "Sources/OpenAIAdmin"
        ),
        // Typed Realtime sessions on the generated event types; re-exports `OpenAIWebSocket`.
        .target(
            name: "OpenAIRealtime",
            dependencies: ["OpenAI", "OpenAIWebSocket"],
            path: "Sources/OpenAIRealtime"
        ),
        // RFC 6455 WebSocket: framing, handshake, POSIX sockets, TLS (OpenSSL on Linux) and
        // `URLSessionWebSocketTask`; knows nothing of the OpenAI API.
        .target(
            name: "OpenAIWebSocket",
            dependencies: [
                "OpenAIRuntime",
                .target(name: "OpenAIWebSocketOpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/OpenAIWebSocket",
            exclude: ["README.md"]
        ),
        .systemLibrary(
            name: "OpenAIWebSocketOpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // MARK: Command-line tool
        // The operation catalogue the generator writes for the `openai` tool (JSON strings).
        .target(name: "OpenAICatalogue", path: "Sources/OpenAICatalogue"),
        // The catalogue's format as `Codable` types: the generator encodes it, the tool decodes it.
        .target(name: "OpenAICatalogueModel", path: "Sources/OpenAICatalogueModel"),
        // The tool on the runtime alone: commands, flags, help, validation, output, completions.
        // YAML values and bodies are read with libyaml through the YAML module it shares with the generator.
        .target(
            name: "OpenAICLI",
            dependencies: [
                "OpenAIRuntime", "OpenAICatalogue", "OpenAICatalogueModel", "OpenAIYAML", "OpenAICommandLine",
            ],
            path: "Sources/OpenAICLI"
        ),
        // YAML (libyaml events to a node tree with line and column) for the generator's spec and the
        // tool's flag values and bodies: named for neither.
        .systemLibrary(
            name: "OpenAILibYAML",
            path: "Sources/CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "OpenAIYAML", dependencies: ["OpenAILibYAML"], path: "Sources/OpenAIYAML"),
        // The grammar of flags the three executables share (`openai`, `openai mcp`, `openai-generator`):
        // `--x y`, `--x=y`, repeats, `--`, did-you-mean. Each keeps its own table of flags.
        .target(name: "OpenAICommandLine", path: "Sources/OpenAICommandLine"),
        // The module is `openai_cli`, not `openai`: a module differing from `OpenAI` only in case
        // would collide on a case-insensitive file system.
        .executableTarget(name: "openai-cli", dependencies: ["OpenAICLI"], path: "Sources/openai-cli"),

        // `import OpenAI` too: SwiftPM recompiles a target when a module it names changes, and the generated event
        // types' layout is `OpenAI`'s, not `OpenAIRealtime`'s.
        .executableTarget(
            name: "openai-bench-realtime",
            dependencies: ["OpenAIRealtime", "OpenAI"],
            path: "Benchmarks/Realtime"
        ),
        .executableTarget(name: "openai-bench-sse", dependencies: ["OpenAI"], path: "Benchmarks/SSE"),
        .executableTarget(name: "openai-bench-upload", dependencies: ["OpenAI"], path: "Benchmarks/Upload"),
        .executableTarget(name: "openai-bench-runtime", dependencies: ["OpenAI"], path: "Benchmarks/Runtime"),
        .executableTarget(name: "openai-bench-embeddings", dependencies: ["OpenAI"], path: "Benchmarks/Embeddings"),
        .executableTarget(
            name: "openai-bench-accumulators", dependencies: ["OpenAI"], path: "Benchmarks/Accumulators"),
        // Prints the bytes of two requests, for `RequestBytesTests` to compare across processes.
        .executableTarget(name: "openai-request-bytes", dependencies: ["OpenAI"], path: "Tests/RequestBytesProbe"),

        // MARK: Generator
        .target(name: "OpenAIGeneratorOpenAPI", dependencies: ["OpenAIYAML"], path: "Generator/OpenAPI"),
        .target(
            name: "OpenAIGeneratorCore",
            dependencies: ["OpenAIGeneratorOpenAPI", "OpenAIYAML", "OpenAICatalogueModel"],
            path: "Generator/Core"),
        // The commands (generate, check, diff) on one argument parser, each returning its outcome.
        .target(
            name: "OpenAIGeneratorCLI",
            dependencies: ["OpenAIGeneratorCore", "OpenAIGeneratorOpenAPI", "OpenAICommandLine"],
            path: "Generator/CLI"
        ),
        .executableTarget(name: "openai-generator", dependencies: ["OpenAIGeneratorCLI"], path: "Generator/Main"),

        // MARK: Tests
        // What every test target shares: skipping outside CI, failing in CI (`Unavailable`), the
        // local test server (`TestServer`) and `../shared` (`SharedData`).
        .target(name: "OpenAISDKTestSupport", dependencies: ["OpenAIRuntime"], path: "Tests/OpenAISDKTestSupport"),
        .testTarget(
            name: "OpenAIGeneratorTests",
            dependencies: [
                "OpenAIGeneratorCLI", "OpenAIGeneratorCore", "OpenAIGeneratorOpenAPI", "OpenAIYAML",
                "OpenAICatalogueModel", "OpenAISDKTestSupport",
            ],
            path: "Tests/OpenAIGeneratorTests",
            // Spec fixtures and their expected Swift are data read by the tests, not test sources.
            exclude: ["Snapshots", "DiffFixtures"]
        ),
        // The runtime (transport, retries, timeouts, SSE, multipart, JSON), without the generated types.
        .testTarget(
            name: "OpenAIRuntimeTests",
            dependencies: ["OpenAIRuntime", "OpenAISDKTestSupport"],
            path: "Tests/OpenAIRuntimeTests"
        ),
        // The RFC 6455 transport (framing, handshake, the built-in client against a local server).
        .testTarget(
            name: "OpenAIWebSocketTests",
            dependencies: ["OpenAIWebSocket", "OpenAISDKTestSupport"],
            path: "Tests/OpenAIWebSocketTests"
        ),
        // The Realtime session layer on the WebSocket transport, and the generated Realtime events.
        .testTarget(
            name: "OpenAISDKRealtimeTests",
            dependencies: [
                "OpenAIRealtime", "OpenAIWebSocket", "OpenAI", "OpenAIRuntime", "OpenAISDKTestSupport",
            ],
            path: "Tests/OpenAISDKRealtimeTests"
        ),
        // The `openai` tool and its MCP server, without the typed SDK.
        .testTarget(
            name: "OpenAICLITests",
            dependencies: [
                "OpenAICLI", "OpenAICommandLine", "OpenAIRuntime", "OpenAIYAML", "OpenAISDKTestSupport",
            ],
            path: "Tests/OpenAICLITests"
        ),
        // The generated SDK on the runtime: operations end to end, conformance on recorded traffic, the helpers.
        .testTarget(
            name: "OpenAISDKTests",
            dependencies: [
                "OpenAI", "OpenAIRuntime", "OpenAIAdmin", "OpenAIYAML", "OpenAISDKTestSupport", "OpenAICLI",
                "OpenAICommandLine",
            ],
            path: "Tests/OpenAISDKTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
