// Uploads one file through createFile (POST /files, multipart/form-data) and prints the elapsed
// time, the throughput and the process's peak RSS. Driven by Scripts/bench/bench-upload.sh.
//
// Usage: openai-bench-upload <file> <base URL, e.g. http://127.0.0.1:8080/v1>
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if BENCH_STANDALONE
    // Compiled into one module with Sources/OpenAI/Runtime: the request is built exactly as the
    // generated `client.files.create` builds it (APIRequest + setMultipartBody + send).
    struct CreateFileForm: MultipartFormEncodable {
        var file: FileUpload
        func encode(to form: inout MultipartForm) throws {
            try form.append("file", file)
            try form.append("purpose", "batch")
        }
    }

    func createFile(_ client: OpenAIClient, _ file: FileUpload) async throws {
        var request = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        try request.setMultipartBody(CreateFileForm(file: file))
        _ = try await client.sendRaw(request, options: RequestOptions())
    }
#else
    import OpenAI

    func createFile(_ client: OpenAIClient, _ file: FileUpload) async throws {
        _ = try await client.files.create(.init(file: file, purpose: .batch))
    }
#endif

func peakRSSKiB() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_maxrss)  // KiB on Linux (bytes on macOS)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let baseURL = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: openai-bench-upload <file> <base URL>\n".utf8))
    exit(2)
}
let fileURL = URL(fileURLWithPath: arguments[1])
let configuration = OpenAIClient.Configuration(
    apiKey: "sk-bench", baseURL: baseURL, requestTimeout: 3600, maxRetries: 0,
    defaultHeaders: ["x-testserver-discard-body": "true", "x-testserver-validate": "false"])
let client = try OpenAIClient(configuration: configuration)
let file = try FileUpload(fileURL: fileURL)
let start = Date()
do {
    try await createFile(client, file)
} catch {
    FileHandle.standardError.write(Data("upload failed: \(error)\n".utf8))
    exit(1)
}
let seconds = Date().timeIntervalSince(start)
print("bytes: \(file.length)")
print("seconds: \(String(format: "%.3f", seconds))")
print("mib_per_s: \(String(format: "%.1f", Double(file.length) / 1_048_576 / seconds))")
print("peak_rss_kib: \(peakRSSKiB())")
