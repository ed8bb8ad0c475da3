import Foundation
import XCTest

// Used by the integration tests: the built-in transport's on Linux (OpenAIWebSocketTests'
// WebSocketIntegrationTests), the session layer's on Linux and macOS (OpenAISDKRealtimeTests'
// RealtimeSessionIntegrationTests, through URLSessionWebSocketTask on macOS). `Process` exists on
// neither iOS, tvOS nor watchOS.
#if os(Linux) || os(macOS)

    /// The Python `websockets` test server (Scripts/servers/realtime-testserver/server.py), started once per
    /// test process on free loopback ports, with a throwaway CA made by make-test-certs.sh.
    ///
    /// The server exits when this process exits: it stops when its stdin (a pipe we hold) closes.
    package final class RealtimeTestServer: Sendable {
        package let plainPort: Int
        package let goodTLSPort: Int
        package let wrongHostTLSPort: Int
        package let caFile: String
        package let caPEM: String
        // Held only to keep the server's stdin open (and the process object alive) for the whole run.
        private let process: Process
        private let stdin: Pipe

        private init(
            plainPort: Int, goodTLSPort: Int, wrongHostTLSPort: Int, caFile: String, caPEM: String,
            process: Process, stdin: Pipe
        ) {
            self.plainPort = plainPort
            self.goodTLSPort = goodTLSPort
            self.wrongHostTLSPort = wrongHostTLSPort
            self.caFile = caFile
            self.caPEM = caPEM
            self.process = process
            self.stdin = stdin
        }

        private static let started: Result<RealtimeTestServer, SetupError> = start()

        package struct SetupError: Error {
            package var message: String
        }

        /// The shared server; skips the calling test with a clear message when Python, the
        /// `websockets` package or the openssl CLI is missing.
        package static func shared() throws -> RealtimeTestServer {
            switch started {
            case .success(let server): return server
            case .failure(let error): throw Unavailable.skip(error.message)
            }
        }

        private static func start() -> Result<RealtimeTestServer, SetupError> {
            let scripts = SharedData.packageRoot.appendingPathComponent("Scripts")
            let python =
                ProcessInfo.processInfo.environment["OPENAI_TEST_PYTHON"]
                ?? scripts.appendingPathComponent(".venv/bin/python").path
            let hint =
                "create it with: python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install -r Scripts/servers/realtime-testserver/requirements.txt"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                return .failure(
                    SetupError(
                        message: "no Python at \(python) (set OPENAI_TEST_PYTHON or \(hint))"))
            }
            guard run(python, ["-c", "import websockets.asyncio.server"]) == 0 else {
                return .failure(
                    SetupError(message: "the websockets package is missing from \(python); \(hint)")
                )
            }
            let certificates = FileManager.default.temporaryDirectory
                .appendingPathComponent(
                    "openai-realtime-tests-\(ProcessInfo.processInfo.processIdentifier)")
            let makeCerts = scripts.appendingPathComponent("servers/realtime-testserver/make-test-certs.sh")
                .path
            guard run("/bin/sh", [makeCerts, certificates.path]) == 0 else {
                return .failure(
                    SetupError(message: "make-test-certs.sh failed (is the openssl CLI installed?)")
                )
            }
            let file = { (name: String) in certificates.appendingPathComponent(name).path }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [
                scripts.appendingPathComponent("servers/realtime-testserver/server.py").path,
                "--tls", "good", file("good.pem"), file("good.key"),
                "--tls", "wrong", file("wrong.pem"), file("wrong.key"),
            ]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            do {
                try process.run()
            } catch {
                return .failure(SetupError(message: "cannot start server.py: \(error)"))
            }
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            struct Ports: Decodable {
                var plain: Int
                var tls: [String: Int]
            }
            guard let ports = try? JSONDecoder().decode(Ports.self, from: line),
                let good = ports.tls["good"], let wrong = ports.tls["wrong"],
                let caPEM = try? String(contentsOfFile: file("ca.pem"), encoding: .utf8)
            else {
                return .failure(
                    SetupError(
                        message:
                            "server.py did not report its ports: \(String(decoding: line, as: UTF8.self))"
                    ))
            }
            return .success(
                RealtimeTestServer(
                    plainPort: ports.plain, goodTLSPort: good, wrongHostTLSPort: wrong,
                    caFile: file("ca.pem"),
                    caPEM: caPEM, process: process, stdin: stdin))
        }

        private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return -1
            }
            process.waitUntilExit()
            return process.terminationStatus
        }

        package func url(_ path: String, tls: Bool = false, port: Int? = nil) -> URL {
            let scheme = tls ? "wss" : "ws"
            return URL(
                string: "\(scheme)://\(tls ? "localhost" : "127.0.0.1"):\(port ?? plainPort)\(path)"
            )!
        }
    }

#endif

#if canImport(Glibc)

    /// What a connection holds in this process, read from `/proc` (Linux). The built-in transport's running I/O
    /// threads are `SocketConnection.liveIOThreadCount` (OpenAIWebSocket).
    package enum ProcessResources {
        /// Open file descriptors, or `nil` without `/proc`.
        package static func openFileDescriptors() -> Int? {
            try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        }
    }

#endif
