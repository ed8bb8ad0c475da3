import XCTest

@testable import OpenAIGeneratorCore

/// Doc-comment summaries and links (`DocText`), input → output.
final class DocTextTests: XCTestCase {
    func testSummaryIsTheFirstSentenceOfTheFirstParagraphWithWrappedLinesJoined() {
        let cases: [(String?, String?)] = [
            (nil, nil),
            ("", nil),
            ("\n\n", nil),
            ("Creates a model response.", "Creates a model response."),
            ("Creates a model response. Provide text or image inputs.", "Creates a model response."),
            // Hard-wrapped: the sentence goes on past the line break.
            (
                "Developer-provided instructions that the model should follow, regardless of\nmessages sent by the user. With o1 models and newer, use `developer`.",
                "Developer-provided instructions that the model should follow, regardless of messages sent by the user."
            ),
            ("First paragraph\nstill first.\n\nSecond paragraph.", "First paragraph still first."),
            ("A list follows:\n- one\n- two", "A list follows:"),
            ("No full stop at all", "No full stop at all"),
            // Abbreviations, code and parentheses do not end a sentence.
            ("Sampling, e.g. Top-p. More.", "Sampling, e.g. Top-p."),
            ("Use `a. B` here. Then more.", "Use `a. B` here."),
            ("The value (see Section 2. Details) applies. Next.", "The value (see Section 2. Details) applies."),
            ("Version 1.5 is current. Older ones are not.", "Version 1.5 is current."),
            ("Ends with a question? Yes.", "Ends with a question?"),
            ("  Leading spaces are trimmed.  ", "Leading spaces are trimmed."),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(DocText.summary(input), expected, "input: \(input ?? "nil")")
        }
    }

    func testADeprecationMessageIsTheSentenceThatSpeaksOfIt() {
        let cases: [(String?, String)] = [
            (nil, "Deprecated in the OpenAI API."),
            ("The status of the file.", "Deprecated in the OpenAI API."),
            ("Deprecated. The current status of the file.", "Deprecated in the OpenAI API."),
            (
                "Deprecated and replaced by `tool_calls`. The name and arguments of a function.",
                "Deprecated and replaced by `tool_calls`."
            ),
            (
                "The maximum number of tokens.\n\nThis value is now deprecated in favor of\n`max_completion_tokens`. More.",
                "This value is now deprecated in favor of `max_completion_tokens`."
            ),
            ("Use \"x\" \\ instead; deprecated", "Use \"x\" \\ instead; deprecated."),
            (
                "Deprecated: not for [o-series models](/docs/guides/reasoning) or [x]().",
                "Deprecated: not for o-series models or x."
            ),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(DocText.deprecationMessage(input), expected, "input: \(input ?? "nil")")
        }
        XCTAssertEqual(
            DocText.deprecatedAttribute("Use \"x\" \\ instead; deprecated"),
            #"@available(*, deprecated, message: "Use \"x\" \\ instead; deprecated.")"#)
    }

    func testValueDescriptionsComeFromTheBulletListThatNamesEachValue() {
        let text = """
            The purpose. One of:
            - `assistants`: Used in the Assistants API
            * `batch` — Used in the Batch API
              - `vision`: Images used for vision fine-tuning
            - `user_data`:
            - `unknown`: Not a value of the enum
            - `batch`: A second line for batch is ignored
            Mentions `evals`: in a sentence, not a list.
            """
        XCTAssertEqual(
            DocText.valueDescriptions(text, values: ["assistants", "batch", "vision", "user_data", "evals"]),
            [
                "assistants": "Used in the Assistants API.",
                "batch": "Used in the Batch API.",
                "vision": "Images used for vision fine-tuning.",
            ])
        XCTAssertEqual(DocText.valueDescriptions(nil, values: ["a"]), [:])
        XCTAssertEqual(DocText.valueDescriptions("No list here.", values: ["a"]), [:])
    }

    func testAnOperationsLeadingAsidesMoveToTheEndAsNotes() {
        let banner = """
            **Starting a new project?** We recommend trying [Responses](/docs/api-reference/responses)
            to take advantage of the latest features.

            ---

            Creates a model response for the given chat conversation.

            Returns a chat completion object.
            """
        XCTAssertEqual(
            DocText.asidesLast(banner),
            """
            Creates a model response for the given chat conversation.

            Returns a chat completion object.

            - Note: **Starting a new project?** We recommend trying [Responses](/docs/api-reference/responses) \
            to take advantage of the latest features.
            """)
        let note = "**NOTE:** This endpoint requires an admin API key.\n\nLists permissions."
        XCTAssertEqual(DocText.summary(DocText.asidesLast(note)), "Lists permissions.")
        XCTAssertEqual(
            DocText.asidesLast("**NOTE:** This endpoint requires an admin API key.\n\nLists permissions."),
            "Lists permissions.\n\n- Note: This endpoint requires an admin API key.")
        // Nothing but asides, or none: unchanged.
        XCTAssertEqual(DocText.asidesLast("**Only** an aside."), "**Only** an aside.")
        XCTAssertEqual(DocText.asidesLast("Lists files.\n\n**Bold** later."), "Lists files.\n\n**Bold** later.")
    }

    func testRootRelativeLinksBecomeAbsolute() {
        XCTAssertEqual(
            DocText.absoluteLinks("See [the guide](/docs/guides/text) and [this](https://example.com/x)."),
            "See [the guide](https://platform.openai.com/docs/guides/text) and [this](https://example.com/x).")
        XCTAssertEqual(DocText.absoluteLinks("a path /docs/x in prose"), "a path /docs/x in prose")
        XCTAssertEqual(
            DocText.absoluteLinks("requires an [admin API key](../admin-api-keys)."),
            "requires an [admin API key](https://platform.openai.com/docs/api-reference/admin-api-keys).")
    }

    func testVariantSummariesAreComposedOfWholeSentences() {
        XCTAssertEqual(
            DocText.variantSummary(
                "Creates a model response. Provide text inputs.", adding: "The reply streams as server-sent events.",
                fallback: "unused"),
            "Creates a model response. The reply streams as server-sent events.")
        XCTAssertEqual(
            DocText.variantSummary(
                "Returns the contents of the\nspecified file", adding: "Writes it to a file.", fallback: "unused"),
            "Returns the contents of the specified file. Writes it to a file.")
        XCTAssertEqual(DocText.variantSummary(nil, adding: "x", fallback: "Calls `GET /x`."), "Calls `GET /x`.")
    }

    func testTheLockedSpecHasNoPlaceholderAndNoRelativeLinkInTheGeneratedCode() throws {
        let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OpenAI/Generated")
        guard
            let files = FileManager.default.enumerator(at: generated, includingPropertiesForKeys: nil)?
                .compactMap({ $0 as? URL }).filter({ $0.pathExtension == "swift" }), !files.isEmpty
        else { return XCTFail("no generated files at \(generated.path)") }
        var placeholders = 0
        var relativeLinks = 0
        var members = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("///") {
                if line.hasSuffix("` schema.") && line.contains("/// The `") { placeholders += 1 }
                if line.hasSuffix("` member.") && line.contains("/// The `") { members += 1 }
                if line.contains("](/") || line.contains("](../") { relativeLinks += 1 }
            }
        }
        XCTAssertEqual(placeholders, 0, "doc comments that only say \"The `X` schema.\"")
        XCTAssertEqual(members, 0, "doc comments that only say \"The `x` member.\"")
        XCTAssertEqual(relativeLinks, 0, "root-relative links in doc comments")
    }
}
