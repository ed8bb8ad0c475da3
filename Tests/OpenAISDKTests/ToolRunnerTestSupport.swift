import Foundation

@testable import OpenAI
@testable import OpenAIRuntime

/// The arguments of the `get_weather` tool of the run-loop tests.
struct CityArguments: Decodable, Sendable {
    var city: String
    var unit: String?
}

/// A tool that takes no arguments.
struct NoArguments: Decodable, Sendable {}

/// What the `get_time` tool throws.
struct ToolFailure: Error, CustomStringConvertible {
    var description: String { "the clock is broken" }
}

/// How many tool calls run at once.
actor ConcurrencyProbe {
    private(set) var running = 0
    private(set) var mostAtOnce = 0

    func enter() {
        running += 1
        mostAtOnce = max(mostAtOnce, running)
    }

    func leave() { running -= 1 }
}

/// Approval requests, collected from concurrent calls.
final class LockedRequests: Sendable {
    private let requests = Locked<[ToolCallRequest]>([])

    func append(_ request: ToolCallRequest) { requests.withLock { $0.append(request) } }
    var all: [ToolCallRequest] { requests.withLock { $0 } }
}

/// The two tools of the run-loop tests: `get_weather` answers `sunny in <city>`, `get_time`
/// throws ``ToolFailure``; each takes 0.2 s, so that two calls of one reply overlap in `probe`.
func weatherAndTimeTools(probe: ConcurrencyProbe = ConcurrencyProbe()) throws -> [RunnableFunction] {
    [
        try RunnableFunction(name: "get_weather", description: "The weather.", arguments: CityArguments.self) {
            arguments in
            await probe.enter()
            try await Task.sleep(nanoseconds: 200_000_000)
            await probe.leave()
            return "sunny in \(arguments.city)"
        },
        try RunnableFunction(name: "get_time", arguments: NoArguments.self) { _ in
            await probe.enter()
            try await Task.sleep(nanoseconds: 200_000_000)
            await probe.leave()
            throw ToolFailure()
        },
    ]
}
