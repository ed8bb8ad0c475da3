// Shared by the JSON and PartialJSON fuzz targets (Scripts/check/fuzz.sh compiles it into both): how two decoders'
// values are compared.

@testable import OpenAIRuntime

/// Whether two values hold the same JSON: an integer and a double are the same number when they are equal
/// (`1e-400` reads as the integer 0 here and as the double 0 in JSONDecoder; both are the number zero).
func sameJSON(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
        return Double(integer) == double
    case (.array(let left), .array(let right)):
        return left.count == right.count && zip(left, right).allSatisfy { sameJSON($0, $1) }
    case (.object(let left), .object(let right)):
        return left.count == right.count
            && left.allSatisfy { key, value in right[key].map { sameJSON(value, $0) } ?? false }
    default:
        return left == right
    }
}
