// The Swift side of Scripts/bench-realtime.sh: the same exchange as bench_client.py, over
// OpenAIRealtime's WebSocket, against the same /bench route of server.py.
// Usage: realtime-bench --url ws://127.0.0.1:PORT/bench [--round-trips 2000] [--appends 2000]
import Foundation
import OpenAIRealtime

struct Arguments {
    var url = ""
    var roundTrips = 2000
    var appends = 2000

    init() {
        var iterator = CommandLine.arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            let value = iterator.next() ?? ""
            switch flag {
            case "--url": url = value
            case "--round-trips": roundTrips = Int(value) ?? roundTrips
            case "--appends": appends = Int(value) ?? appends
            default: fatalError("unknown argument \(flag)")
            }
        }
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count - 1)).rounded()))]
}

func event(_ index: Int) -> String {
    let id = String(index)
    return #"{"type":"response.create","event_id":"evt_"#
        + String(repeating: "0", count: max(0, 6 - id.count))
        + id + #""}"#
}

/// Runs the exchange and prints one JSON line.
func benchmark() async throws {
    let arguments = Arguments()
    let socket = try await WebSocket.connect(to: URL(string: arguments.url)!)
    var messages = socket.messages.makeAsyncIterator()

    for index in 0..<50 {
        try await socket.send(text: event(index))
        _ = try await messages.next()
    }
    var roundTrips: [Double] = []
    let clock = ContinuousClock()
    for index in 0..<arguments.roundTrips {
        let start = clock.now
        try await socket.send(text: event(index))
        guard case .text = try await messages.next() else { fatalError("expected the echo") }
        let elapsed = clock.now - start
        roundTrips.append(
            Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds)
                * 1000)
    }
    roundTrips.sort()

    var generator = SystemRandomNumberGenerator()
    let audio = Data((0..<4800).map { _ in UInt8.random(in: 0...255, using: &generator) })
        .base64EncodedString()
    let append = #"{"type":"input_audio_buffer.append","audio":""# + audio + #""}"#
    let start = clock.now
    for _ in 0..<arguments.appends {
        try await socket.send(text: append)
    }
    try await socket.send(text: #"{"type":"input_audio_buffer.commit"}"#)
    guard case .text(let reply) = try await messages.next(),
        let json = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
        json["appends"] as? Int == arguments.appends, let bytes = json["bytes"] as? Int
    else { fatalError("unexpected commit reply") }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    await socket.close()

    let result: [String: Any] = [
        "client": "swift-openai-realtime",
        "rtt_median_ms": percentile(roundTrips, 0.5),
        "rtt_p99_ms": percentile(roundTrips, 0.99),
        "append_messages_per_s": Double(arguments.appends) / seconds,
        "append_mb_per_s": Double(bytes) / seconds / 1e6,
    ]
    print(
        String(
            decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]),
            as: UTF8.self))
}

try await benchmark()
