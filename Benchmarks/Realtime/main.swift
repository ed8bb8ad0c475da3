// The Swift side of Scripts/bench/bench-realtime.sh: the same exchange as bench_client.py, over
// OpenAIRealtime's WebSocket, against the same /bench route of server.py.
// Usage: openai-bench-realtime --url ws://127.0.0.1:PORT/bench [--round-trips 2000] [--appends 2000]
//        [--layer session|transport]
// --layer session (default) goes through RealtimeSession: typed client events encoded with
// JSONEncoder, every server message decoded into the generated RealtimeServerEvent union, audio
// appended with appendAudio(_:) (PCM16 -> base64). --layer transport sends prebuilt JSON text over
// the bare WebSocket and does not decode replies.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import OpenAI
import OpenAIRealtime

struct Arguments {
    var url = ""
    var roundTrips = 2000
    var appends = 2000
    var layer = "session"

    init() {
        var iterator = CommandLine.arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            let value = iterator.next() ?? ""
            switch flag {
            case "--url": url = value
            case "--round-trips": roundTrips = Int(value) ?? roundTrips
            case "--appends": appends = Int(value) ?? appends
            case "--layer": layer = value
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

/// CPU time of the whole process (every thread: the caller's tasks and the I/O thread), in
/// microseconds, user plus system (getrusage(2)).
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
    return microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
}

/// Prints the figures as one JSON line.
func report(
    layer: String, roundTrips: [Double], appends: Int, bytes: Int, seconds: Double,
    cpuMicroseconds: Double
) throws {
    let result: [String: Any] = [
        "append_cpu_us_per_message": cpuMicroseconds / Double(appends),
        "client": "swift-openai-realtime-\(layer)",
        "rtt_median_ms": percentile(roundTrips, 0.5),
        "rtt_p99_ms": percentile(roundTrips, 0.99),
        "append_messages_per_s": Double(appends) / seconds,
        "append_mb_per_s": Double(bytes) / seconds / 1e6,
    ]
    print(
        String(
            decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]),
            as: UTF8.self))
}

func milliseconds(_ elapsed: Duration) -> Double {
    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
}

/// The same exchange through the typed session layer.
func benchmarkSession(_ arguments: Arguments) async throws {
    let session = try await RealtimeSession.connect(
        .model("bench"), clientSecret: "ek_bench",
        options: RealtimeSessionOptions(endpoint: URL(string: arguments.url)!))
    var events = session.events.makeAsyncIterator()
    func roundTrip(_ index: Int) async throws {
        var create = RealtimeClientEventResponseCreate()
        create.eventID = "evt_" + String(index)
        try await session.send(.responseCreate(create))
        guard case .unknown = try await events.next() else { fatalError("expected the echo") }
    }
    for index in 0..<50 { try await roundTrip(index) }
    var roundTrips: [Double] = []
    let clock = ContinuousClock()
    for index in 0..<arguments.roundTrips {
        let start = clock.now
        try await roundTrip(index)
        roundTrips.append(milliseconds(clock.now - start))
    }
    roundTrips.sort()

    var generator = SystemRandomNumberGenerator()
    let audio = Data((0..<4800).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let start = clock.now
    let cpuStart = processCPUMicroseconds()
    for _ in 0..<arguments.appends {
        try await session.appendAudio(audio)
    }
    try await session.send(.inputAudioBufferCommit(RealtimeClientEventInputAudioBufferCommit()))
    // The bench route's reply (`bench.committed`, a type the spec does not define) arrives as unknown.
    // Any other event before it is named on standard error (CI saw one, once, unexplained).
    var others: [String] = []
    var bytes: Int?
    while bytes == nil {
        guard let event = try await events.next() else {
            fatalError("the session ended before bench.committed; other events: \(others)")
        }
        guard case .unknown(let reply) = event, reply["type"] == .string("bench.committed") else {
            others.append(String(String(describing: event).prefix(500)))
            continue
        }
        guard case .int(let appended)? = reply["appends"], appended == arguments.appends,
            case .int(let count)? = reply["bytes"]
        else { fatalError("unexpected commit reply: \(reply)") }
        bytes = count
    }
    if !others.isEmpty {
        FileHandle.standardError.write(
            Data("bench-realtime: \(others.count) other event(s) before bench.committed: \(others)\n".utf8))
    }
    let elapsed = clock.now - start
    let cpu = processCPUMicroseconds() - cpuStart
    await session.close()
    try report(
        layer: "session", roundTrips: roundTrips, appends: arguments.appends, bytes: bytes ?? 0,
        seconds: milliseconds(elapsed) / 1000, cpuMicroseconds: cpu)
}

/// Runs the exchange over the bare transport and prints one JSON line.
func benchmarkTransport(_ arguments: Arguments) async throws {
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
        roundTrips.append(milliseconds(clock.now - start))
    }
    roundTrips.sort()

    var generator = SystemRandomNumberGenerator()
    let audio = Data((0..<4800).map { _ in UInt8.random(in: 0...255, using: &generator) })
        .base64EncodedString()
    let append = #"{"type":"input_audio_buffer.append","audio":""# + audio + #""}"#
    let start = clock.now
    let cpuStart = processCPUMicroseconds()
    for _ in 0..<arguments.appends {
        try await socket.send(text: append)
    }
    try await socket.send(text: #"{"type":"input_audio_buffer.commit"}"#)
    guard case .text(let reply) = try await messages.next(),
        let json = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
        json["appends"] as? Int == arguments.appends, let bytes = json["bytes"] as? Int
    else { fatalError("unexpected commit reply") }
    let elapsed = clock.now - start
    let cpu = processCPUMicroseconds() - cpuStart
    await socket.close()
    try report(
        layer: "transport", roundTrips: roundTrips, appends: arguments.appends, bytes: bytes,
        seconds: milliseconds(elapsed) / 1000, cpuMicroseconds: cpu)
}

let arguments = Arguments()
if arguments.layer == "transport" {
    try await benchmarkTransport(arguments)
} else {
    try await benchmarkSession(arguments)
}
