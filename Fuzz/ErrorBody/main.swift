// Fuzz target: error replies (Sources/OpenAIRuntime/Errors: ErrorBody, OpenAIError.fromResponse,
// Redaction).
//
// The input's first byte picks the status (400 to 599); the rest is the body. Invariants:
// - `fromResponse` never traps, and its error has a message, a description and a debug
//   description;
// - the message of a body that is not JSON has at most 512 characters (and an ellipsis);
// - the description and the debug description never hold a registered secret, and hold an
//   `sk-` key (`plantedKey`) only where it does not start a token.

import Foundation
@testable import OpenAIRuntime

/// A secret registered with `Redaction`, as the client registers its API key.
let registeredSecret = "sk-registered-FUZZ-0123456789abcdef"
/// A key that is not registered: only its shape (`sk-` at the start of a token) redacts it.
let plantedKey = "sk-planted-FUZZ-0123456789abcdef"

let registered: Bool = {
    Redaction.register(secret: registeredSecret)
    return true
}()

/// Whether `key` occurs in `text` where a token starts (at the start or after a character that
/// is not a letter, digit, `-` or `_`): where Redaction must have masked it.
func holdsKeyAtTokenStart(_ text: String, _ key: String) -> Bool {
    var searchStart = text.startIndex
    while let range = text.range(of: key, range: searchStart..<text.endIndex) {
        if range.lowerBound == text.startIndex {
            return true
        }
        let before = text[text.index(before: range.lowerBound)]
        if !(before.isLetter || before.isNumber || before == "-" || before == "_") {
            return true
        }
        searchStart = range.upperBound
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzErrorBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    invariant(registered, "the secret is not registered")
    let bytes = fuzzBytes(data, size)
    guard let first = bytes.first else { return 0 }
    let status = 400 + Int(first) % 200
    let body = Data(bytes.dropFirst())
    let response = HTTPResponse(
        statusCode: status, headers: ["content-type": "application/json", "x-request-id": "req_fuzz"], body: body)
    let error = OpenAIError.fromResponse(response)
    invariant(!error.message.isEmpty, "an empty message")
    invariant(error.statusCode == status, "status \(String(describing: error.statusCode)), not \(status)")
    if (try? JSONDecoder().decode(JSONValue.self, from: body)) == nil {
        invariant(
            error.message.count <= ErrorBody.maxMessageCharacters + 1 || error.message == "HTTP \(status)",
            "a text body's message has \(error.message.count) characters")
    }
    for text in [
        error.description, error.debugDescription, String(describing: error.customMirror.children.map(\.value)),
    ] {
        invariant(!text.utf8.contains(registeredSecret.utf8), "the registered secret shows: \(text)")
    }
    for text in [Redaction.text(error.message), error.debugDescription] {
        invariant(!holdsKeyAtTokenStart(text, plantedKey), "an sk- key shows: \(text)")
    }
    return 0
}
