// swift-tools-version:6.0
import PackageDescription

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
    ],
    targets: [
        // MARK: SDK
        // The generated types and methods and the helpers written against them, on the runtime,
        // which this module re-exports: `import OpenAI` is all a caller writes.
        .target(
            name: "OpenAI",
            dependencies: ["OpenAIRuntime"],
            path: "Sources/OpenAI",
            // The generator writes the admin module's files into its one output folder.
            exclude: ["Generated/Admin"]
        ),
        // Everything the generated code is built on (client, transport, retries, errors, coding,
        // multipart, pagination, webhooks, server-sent events, the hand-written substitute types):
        // it compiles without the generated code, so the compiler keeps the layer.
        .target(
            name: "OpenAIRuntime",
            dependencies: [.target(name: "CLibcurl", condition: .when(platforms: [.linux]))],
            path: "Sources/OpenAIRuntime"
        ),
        // libcurl loaded at run time (the libcurl.so.4 FoundationNetworking links) for direct
        // uploads on Linux; building it needs no libcurl development package.
        .target(
            name: "CLibcurl",
            path: "Sources/CLibcurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "OpenAIAdmin",
            dependencies: ["OpenAI"],
            path: "Sources/OpenAI/Generated/Admin"
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
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/OpenAIWebSocket",
            exclude: ["README.md"]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        .executableTarget(
            name: "realtime-bench",
            dependencies: ["OpenAIRealtime"],
            path: "Benchmarks/Realtime"
        ),
        .executableTarget(name: "bench-sse", dependencies: ["OpenAI"], path: "Benchmarks/SSE"),
        .executableTarget(name: "bench-upload", dependencies: ["OpenAI"], path: "Benchmarks/Upload"),
        .executableTarget(name: "bench-runtime", dependencies: ["OpenAI"], path: "Benchmarks/Runtime"),
        .executableTarget(name: "bench-embeddings", dependencies: ["OpenAI"], path: "Benchmarks/Embeddings"),

        // MARK: Generator
        .systemLibrary(
            name: "CYaml",
            path: "Generator/CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "YAML", dependencies: ["CYaml"], path: "Generator/YAML"),
        .target(name: "OpenAPI", dependencies: ["YAML"], path: "Generator/OpenAPI"),
        .target(name: "GeneratorCore", dependencies: ["OpenAPI"], path: "Generator/Core"),
        // The commands (generate, check, diff) on one argument parser, each returning its outcome.
        .target(name: "GeneratorCLI", dependencies: ["GeneratorCore", "OpenAPI"], path: "Generator/CLI"),
        .executableTarget(name: "openai-generator", dependencies: ["GeneratorCLI"], path: "Generator/Main"),

        // MARK: Tests
        // What every test target shares: skipping outside CI, failing in CI (`Unavailable`).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "GeneratorTests",
            dependencies: ["GeneratorCLI", "GeneratorCore", "OpenAPI", "YAML", "TestSupport"],
            path: "Tests/GeneratorTests",
            // Spec fixtures and their expected Swift are data read by the tests, not test sources.
            exclude: ["Snapshots", "DiffFixtures"]
        ),
        .testTarget(
            name: "OpenAIRealtimeTests",
            dependencies: ["OpenAIRealtime", "OpenAIWebSocket", "OpenAI", "OpenAIRuntime", "TestSupport"],
            path: "Tests/OpenAIRealtimeTests"
        ),
        .testTarget(
            name: "OpenAITests",
            dependencies: ["OpenAI", "OpenAIRuntime", "OpenAIAdmin", "YAML", "TestSupport"],
            path: "Tests/OpenAITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
