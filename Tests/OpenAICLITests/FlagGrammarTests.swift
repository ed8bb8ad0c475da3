import Foundation
import OpenAICommandLine
import OpenAIRuntime
import XCTest

@testable import OpenAICLI

/// The flag grammar the executables share (``FlagScanner``): one table of command lines and what
/// they read as, then the same forms through `openai` and `openai mcp` (`openai-generator`'s
/// `CommandArguments` is tested with the generator).
final class FlagGrammarTests: XCTestCase {
    /// `words` read with `valued` flags taking a value and `switches` an optional `true`/`false`:
    /// one line per token (`--name=value`, `--name` for a switch left alone, `positional`, `help`,
    /// `--name (no value)`).
    private func read(_ words: [String], valued: Set<String> = ["model", "input"], switches: Set<String> = ["stream"])
        -> [String]
    {
        var scanner = FlagScanner(words)
        var lines: [String] = []
        while let token = scanner.next() {
            switch token {
            case .help:
                lines.append("help")
            case .positional(let word):
                lines.append("positional \(word)")
            case .flag(let name, let inline) where valued.contains(name):
                lines.append(scanner.value(inline: inline).map { "--\(name)=\($0)" } ?? "--\(name) (no value)")
            case .flag(let name, let inline) where switches.contains(name):
                lines.append(
                    "--\(name)="
                        + (scanner.optionalValue(inline: inline, accepting: { $0 == "true" || $0 == "false" }) ?? "true")
                )
            case .flag(let name, let inline):
                lines.append("unknown --\(name)" + (inline.map { "=\($0)" } ?? ""))
            }
        }
        return lines
    }

    func testTheGrammarTable() {
        let table: [(words: [String], reads: [String])] = [
            // `--x y` and `--x=y`, an empty inline value.
            (["--model", "gpt-4o"], ["--model=gpt-4o"]),
            (["--model=gpt-4o"], ["--model=gpt-4o"]),
            (["--model="], ["--model="]),
            (["--model=a=b"], ["--model=a=b"]),
            // Repeats are read in order; what they mean is the table's.
            (["--input", "a", "--input=b"], ["--input=a", "--input=b"]),
            // A value cannot be another flag, nor be missing.
            (["--model", "--stream"], ["--model (no value)", "--stream=true"]),
            (["--model"], ["--model (no value)"]),
            // A switch takes `true`/`false` next to it, or stands for true.
            (["--stream", "false", "x"], ["--stream=false", "positional x"]),
            (["--stream", "x"], ["--stream=true", "positional x"]),
            (["--stream=false"], ["--stream=false"]),
            // Help anywhere before `--`; single-dash words are positional.
            (["-h", "x", "--help"], ["help", "positional x", "help"]),
            (["-x", "--model", "m"], ["positional -x", "--model=m"]),
            // `--` ends the flags: what follows is positional, and a flag before it has no value there.
            (
                ["a", "--", "--model", "-h", "--"],
                ["positional a", "positional --model", "positional -h", "positional --"]
            ),
            (["--model", "--", "x"], ["--model (no value)", "positional x"]),
            (["--stream", "--", "false"], ["--stream=true", "positional false"]),
            // Unknown flags are the table's to refuse.
            (["--modle", "x"], ["unknown --modle", "positional x"]),
            (["--=x"], ["unknown --=x"]),
        ]
        for row in table {
            XCTAssertEqual(read(row.words), row.reads, "\(row.words)")
        }
    }

    func testDidYouMeanSuggestsTheClosestKnownWordOnlyWhenClose() {
        XCTAssertEqual(
            Suggestion.didYouMean("modle", among: ["model", "input"], prefix: "--"), "; did you mean `--model`?")
        XCTAssertEqual(
            Suggestion.didYouMean("temp", among: ["temperature"]), "; did you mean `temperature`?", "a prefix")
        XCTAssertEqual(Suggestion.didYouMean("zzzzzz", among: ["model", "input"]), "")
        XCTAssertEqual(Suggestion.didYouMean("x", among: []), "")
        XCTAssertEqual(Suggestion.distance("kitten", "sitting"), 3)
    }

    /// The same forms through `openai`: `--x=y` and `--x y` alike, repeats kept, `--` ends the flags.
    func testOpenAIReadsTheGrammar() throws {
        func call(_ words: [String]) throws -> Invocation.Call {
            guard case .call(let call) = try Invocation.parse(words, catalogue: .shared) else {
                throw CLIError.failure("not a call: \(words)")
            }
            return call
        }
        let spaced = try call(["models", "retrieve", "--model", "gpt-4o"])
        let joined = try call(["models", "retrieve", "--model=gpt-4o"])
        XCTAssertEqual(spaced.values["model"], ["gpt-4o"])
        XCTAssertEqual(joined.values["model"], ["gpt-4o"])
        XCTAssertEqual(try call(["files", "list", "--limit", "2", "--limit=3"]).values["limit"], ["2", "3"])
        XCTAssertThrowsError(try Invocation.parse(["models", "retrieve", "--", "--model", "x"], catalogue: .shared)) {
            XCTAssertTrue("\($0)".contains("takes no argument `--model`"), "\($0)")
        }
        XCTAssertThrowsError(try Invocation.parse(["models", "retrieve", "--modle", "x"], catalogue: .shared)) {
            XCTAssertTrue("\($0)".contains("did you mean `--model`?"), "\($0)")
        }
        guard case .version = try Invocation.parse(["-v"], catalogue: .shared) else { return XCTFail("-v") }
        guard case .help = try Invocation.parse(["models", "retrieve", "-h"], catalogue: .shared) else {
            return XCTFail("-h")
        }
    }

    /// And through `openai mcp`.
    func testOpenAIMCPReadsTheGrammar() throws {
        XCTAssertEqual(try MCPOptions.parse(["--operation", "a", "--operation=b"]).operations, ["a", "b"])
        XCTAssertEqual(try MCPOptions.parse(["--tools=dynamic"]).mode, .dynamic)
        XCTAssertTrue(try MCPOptions.parse(["-h"]).help)
        XCTAssertThrowsError(try MCPOptions.parse(["--tools"])) {
            XCTAssertTrue("\($0)".contains("--tools needs a value"))
        }
        XCTAssertThrowsError(try MCPOptions.parse(["--", "--list"])) {
            XCTAssertTrue("\($0)".contains("takes no argument `--list`"), "\($0)")
        }
        XCTAssertThrowsError(try MCPOptions.parse(["--opration", "x"])) {
            XCTAssertTrue("\($0)".contains("did you mean `--operation`?"), "\($0)")
        }
    }
}
