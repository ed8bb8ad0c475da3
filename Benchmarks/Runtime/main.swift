// Per-request overhead of the OpenAI runtime against bare URLSession, on the local test server.
//
// Usage: openai-bench-runtime <base-url> [rounds] [requests-per-round]
// With BENCH_RUNTIME_ONLY=sdk or bare: warms up that client alone, then sends requests-per-round
// requests with it, one at a time, and exits (for profilers: the cost per request is the slope
// between two counts). Otherwise each round sends the same `GET /models/{model}` exchange with bare URLSession (data(for:), no
// decoding) and through the SDK (request building, headers, retry loop, delegate transport,
// JSON decoding of the reply), alternating so drift hits both alike, with 1 and 16 concurrent
// tasks. Prints requests per second per round and the medians, then the summary lines.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if !STANDALONE
    import OpenAI
#endif

struct ModelReply: Decodable {
    var id: String
    var object: String
    var created: Int
    var owned_by: String
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let baseURL = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: openai-bench-runtime <base-url> [rounds] [requests-per-round]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let perRound = arguments.count > 3 ? Int(arguments[3]) ?? 400 : 400
let headers = ["x-testserver-validate": "false", "x-testserver-scenario": "bench"]

let client = try OpenAIClient(
    configuration: .init(apiKey: "sk-bench", baseURL: baseURL, maxRetries: 0, defaultHeaders: headers))

func sdkCall() async throws {
    #if STANDALONE
        var request = APIRequest(method: "GET", path: "/models/{model}", operationID: "retrieveModel")
        try request.setPathParameter("model", "gpt-4o")
        let reply = try await client.send(request, options: RequestOptions(), as: ModelReply.self)
    #else
        let reply = try await client.models.retrieve(model: "gpt-4o")
    #endif
    precondition(!reply.id.isEmpty)
}

let bareSession = URLSession(configuration: .default)
let bareURL = baseURL.appendingPathComponent("models/gpt-4o")

func bareCall() async throws {
    var request = URLRequest(url: bareURL)
    request.setValue("Bearer sk-bench", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await bareSession.data(for: request)
    precondition((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty)
}

/// Runs `count` calls with `concurrency` tasks; returns requests per second.
func measure(_ count: Int, concurrency: Int, _ call: @escaping @Sendable () async throws -> Void) async throws -> Double
{
    let start = DispatchTime.now().uptimeNanoseconds
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
            group.addTask { for _ in 0..<share { try await call() } }
        }
        try await group.waitForAll()
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return Double(count) / seconds
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs the benchmark: the profiling mode, or the rounds and the summary.
func run() async throws {
    if let only = ProcessInfo.processInfo.environment["BENCH_RUNTIME_ONLY"] {
        // Profiling mode: one client, one task; nothing of the other client runs.
        let call: @Sendable () async throws -> Void
        switch only {
        case "sdk": call = sdkCall
        case "bare": call = bareCall
        default:
            FileHandle.standardError.write(Data("BENCH_RUNTIME_ONLY is `\(only)`; use sdk or bare\n".utf8))
            exit(2)
        }
        _ = try await measure(50, concurrency: 1, call)
        let rate = try await measure(perRound, concurrency: 1, call)
        print("\(only) only: \(perRound) requests, " + String(format: "%.0f req/s (%.1f us/req)", rate, 1e6 / rate))
        return
    }

    // Warm-up: connections, caches, the server's code paths.
    _ = try await measure(50, concurrency: 1, bareCall)
    _ = try await measure(50, concurrency: 1, sdkCall)

    var ratios: [Int: Double] = [:]
    for concurrency in [1, 16] {
        var bare: [Double] = []
        var sdk: [Double] = []
        for round in 1...rounds {
            bare.append(try await measure(perRound, concurrency: concurrency, bareCall))
            sdk.append(try await measure(perRound, concurrency: concurrency, sdkCall))
            print(
                String(
                    format: "c%-2d round %d: bare %.0f req/s, sdk %.0f req/s", concurrency, round, bare.last!, sdk.last!
                ))
        }
        let bareRate = median(bare)
        let sdkRate = median(sdk)
        // Time per request is 1/rate: our time over bare URLSession's.
        ratios[concurrency] = bareRate / sdkRate
        print(
            String(
                format: "c%d median: bare %.0f req/s (%.1f us/req), sdk %.0f req/s (%.1f us/req)", concurrency,
                bareRate,
                1e6 / bareRate, sdkRate, 1e6 / sdkRate))
    }
    print(String(format: "overhead_ratio_c1: %.3f", ratios[1]!))
    print(String(format: "overhead_ratio_c16: %.3f", ratios[16]!))
}

// No top-level `await`: an async main parks the main thread in `dispatch_main`, whose
// `sigsuspend` on a read-only mask valgrind (3.19) cannot run. The main thread waits instead.
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await run()
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
