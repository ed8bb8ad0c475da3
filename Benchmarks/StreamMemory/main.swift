// Peak memory of a stream read by a consumer slower than the network (Scripts/bench/bench-stream-memory.sh).
//
// Compiled with the runtime's sources as one module (it calls the client's internal `stream`),
// against a local server that sends `MiB` of server-sent events of 64 KiB each as fast as the
// socket takes them. The consumer sleeps `delay-ms` after each event. Prints one line:
//   peak_rss_kib: <n> events: <n> seconds: <s>
// Usage: bench-stream-memory URL MiB delay-ms
import Foundation

#if canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let baseURL = URL(string: arguments[1]), let mebibytes = Int(arguments[2]),
    let delay = Int(arguments[3])
else {
    FileHandle.standardError.write(Data("usage: bench-stream-memory URL MiB delay-ms\n".utf8))
    exit(2)
}

/// The process's peak resident memory in KiB: `VmHWM` of `/proc/self/status` on Linux, `ru_maxrss`
/// of getrusage(2) (bytes) elsewhere; -1 when it cannot be read.
func peakResidentKiB() -> Int {
    #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
        }
        return -1
    #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return -1 }
        return Int(usage.ru_maxrss) / 1024
    #endif
}

let client = try OpenAIClient(
    configuration: .init(apiKey: "sk-bench", baseURL: baseURL, maxRetries: 0, maxStreamEventBytes: 1 << 20))
var request = APIRequest(method: "POST", path: "/stream", operationID: "benchStream")
request.query = [URLQueryItem(name: "mib", value: String(mebibytes))]
let stream = client.stream(
    request, options: RequestOptions(), as: JSONValue.self, framing: .data, ending: .unspecified)
let started = ContinuousClock.now
var events = 0
for try await event in stream {
    precondition(event["text"] != nil)
    events += 1
    if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
}
let seconds = (ContinuousClock.now - started) / .seconds(1)
print("peak_rss_kib: \(peakResidentKiB()) events: \(events) seconds: \(String(format: "%.1f", seconds))")
