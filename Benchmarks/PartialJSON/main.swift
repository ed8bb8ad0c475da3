// The partial-JSON decoder (Sources/OpenAIRuntime/StructuredOutputs/PartialJSONDecoder.swift), compiled
// with JSONValue into one module by Scripts/bench/bench-partial-json.sh. Prints medians.
// Usage: bench [runs] [divisor]   (default 5 runs; every size divided by `divisor`, default 1: the smoke mode of
//                                  Scripts/bench/bench-partial-json.sh passes 16)
import Foundation

/// A structured output like a model's: records with strings, numbers, booleans, nested arrays.
struct Catalog: Codable {
    struct Item: Codable {
        var id: Int
        var name: String
        var summary: String
        var price: Double
        var inStock: Bool
        var tags: [String]
    }
    var title: String
    var items: [Item]
}

/// A deterministic catalog whose JSON is about `bytes` long.
func catalogJSON(bytes: Int) -> String {
    func item(_ index: Int) -> Catalog.Item {
        .init(
            id: index, name: "Item \(index) — café", summary: "A \"quoted\" line\nabout item \(index).",
            price: Double(index) * 1.25 + 0.99, inStock: index % 3 != 0, tags: ["t\(index % 7)", "new"])
    }
    let encoder = JSONEncoder()
    let itemBytes = try! encoder.encode(item(500)).count + 1
    let items = (0..<max(1, bytes / itemBytes)).map(item)
    return String(decoding: try! encoder.encode(Catalog(title: "Catalogue", items: items)), as: UTF8.self)
}

/// The text in deltas of `size` characters, as a model streams tokens.
func deltas(_ text: String, size: Int) -> [String] {
    var result: [String] = []
    var current = ""
    for character in text {
        current.append(character)
        if current.count == size {
            result.append(current)
            current = ""
        }
    }
    if !current.isEmpty { result.append(current) }
    return result
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Feeds `pieces` to a new decoder, which must end with a complete value.
func parseWhole(_ pieces: [String]) throws {
    var decoder = PartialJSONDecoder()
    for piece in pieces { try decoder.append(piece) }
    precondition(decoder.isComplete)
}

let runs = max(1, Int(CommandLine.arguments.dropFirst().first ?? "5") ?? 5)
let divisor = max(1, Int(CommandLine.arguments.dropFirst(2).first ?? "1") ?? 1)
var parseRates: [Double] = []
var snapshotRates: [Double] = []
print("# partial-json: deltas of 4 characters; medians of \(runs) runs")
var worstTyped = 0.0
for size in [2_048, 16_384, 131_072].map({ $0 / divisor }) {
    let text = catalogJSON(bytes: size)
    let pieces = deltas(text, size: 4)
    let megabytes = Double(text.utf8.count) / 1_048_576
    var parse: [Double] = []
    var snapshot: [Double] = []
    var typed: [Double] = []
    var once: [Double] = []
    var onceValue: [Double] = []
    for _ in 0..<runs {
        parse.append(
            try seconds { try parseWhole(pieces) })
        snapshot.append(
            try seconds {
                var decoder = PartialJSONDecoder()
                var members = 0
                for piece in pieces {
                    try decoder.append(piece)
                    if case .object(let object)? = decoder.value { members += object.count }
                }
                precondition(members > 0)
            })
        if size <= 16_384 / divisor {
            typed.append(
                try seconds {
                    var decoder = PartialJSONDecoder()
                    var decoded = 0
                    for piece in pieces {
                        try decoder.append(piece)
                        if decoder.decode(as: Catalog.self) != nil { decoded += 1 }
                    }
                    precondition(decoded > 0)
                })
        }
        let data = Data(text.utf8)
        once.append(try seconds { _ = try JSONDecoder().decode(Catalog.self, from: data) })
        onceValue.append(try seconds { _ = try JSONDecoder().decode(JSONValue.self, from: data) })
    }
    let parseRate = megabytes / median(parse)
    let snapshotRate = megabytes / median(snapshot)
    print(
        "size \(text.utf8.count) B, \(pieces.count) deltas: parse \(String(format: "%.1f", parseRate)) MB/s;"
            + " parse + value after every delta \(String(format: "%.1f", snapshotRate)) MB/s"
            + " (\(String(format: "%.2f", median(snapshot) / median(onceValue)))x one JSONDecoder decode of the"
            + " whole text as JSONValue)")
    if !typed.isEmpty {
        let ratio = median(typed) / median(once)
        worstTyped = max(worstTyped, ratio)
        print(
            "  typed partial decode after every delta: \(String(format: "%.3f", median(typed))) s,"
                + " \(String(format: "%.1f", ratio))x one JSONDecoder decode of the final JSON"
                + " (\(String(format: "%.4f", median(once))) s)")
    }
    parseRates.append(parseRate)
    snapshotRates.append(snapshotRate)
}
// Deep and long inputs: whether anything re-reads the text so far (the cost would grow with the square of the
// length). Nesting 500 levels deep (the decoder reads 512) fed one character at a time; 10,000 levels (which stop at
// level 513); a string of 256 KiB and 1 MiB in deltas of 4 characters, parsing alone (linear: 4x the text, 4x the
// time) and with the value so far after every delta (each value holds a copy of the open string: that copy grows
// with the text, the rest does not).
func nested(_ depth: Int) -> String {
    String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)
}
for depth in [250, 500] {
    let pieces = nested(depth).map(String.init)
    var parse: [Double] = []
    var snapshot: [Double] = []
    for _ in 0..<runs {
        parse.append(
            try seconds { try parseWhole(pieces) })
        snapshot.append(
            try seconds {
                var decoder = PartialJSONDecoder()
                var values = 0
                for piece in pieces {
                    try decoder.append(piece)
                    if decoder.value != nil { values += 1 }
                }
                precondition(values == pieces.count)
            })
    }
    print(
        "nesting \(depth) levels, \(pieces.count) deltas of 1 character: parse \(String(format: "%.4f", median(parse))) s;"
            + " parse + value after every delta \(String(format: "%.4f", median(snapshot))) s")
}
let tooDeep = nested(10_000).map(String.init)
let tooDeepSeconds = seconds {
    var decoder = PartialJSONDecoder()
    var read = 0
    for piece in tooDeep {
        do { try decoder.append(piece) } catch { break }
        read += 1
    }
    precondition(read == PartialJSONDecoder.maxDepth)
}
print(
    "nesting 10,000 levels, 1 character at a time: throws at level 513 after \(String(format: "%.4f", tooDeepSeconds)) s"
)
var longParse: [Int: Double] = [:]
let longSizes = [262_144, 1_048_576].map { $0 / divisor }
for size in longSizes {
    let text =
        #"{"text":""# + String(repeating: "abcdefghij klmnopqrstuvwxyz.", count: size / 28 + 1).prefix(size) + #""}"#
    let pieces = deltas(text, size: 4)
    var parse: [Double] = []
    for _ in 0..<runs {
        parse.append(
            try seconds { try parseWhole(pieces) })
    }
    longParse[size] = median(parse)
    // One run: at 1 MiB the values after every delta copy about 137 GB of open string between them.
    let snapshot = try seconds {
        var decoder = PartialJSONDecoder()
        var characters = 0
        for piece in pieces {
            try decoder.append(piece)
            if case .object(let object)? = decoder.value, case .string(let soFar)? = object["text"] {
                characters = soFar.utf8.count
            }
        }
        precondition(characters == size)
    }
    print(
        "string of \(size / 1024) KiB, \(pieces.count) deltas of 4 characters: parse \(String(format: "%.4f", median(parse))) s"
            + " (\(String(format: "%.1f", Double(size) / 1_048_576 / median(parse))) MB/s);"
            + " parse + value after every delta (1 run) \(String(format: "%.2f", snapshot)) s")
}
print(
    "long_string_parse_ratio_1mib_vs_256kib: \(String(format: "%.2f", longParse[longSizes[1]]! / longParse[longSizes[0]]!))"
        + " (4.00 is linear)")
print("partial_json_parse_mb_per_s: \(String(format: "%.1f", parseRates.min()!))")
print("partial_json_snapshot_mb_per_s: \(String(format: "%.1f", snapshotRates.min()!))")
print("typed_partials_vs_final_decode: \(String(format: "%.1f", worstTyped))")
