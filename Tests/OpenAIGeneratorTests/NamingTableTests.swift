import XCTest

@testable import OpenAIGeneratorCore

/// Every identifier rule as a table, input → name (`Naming`); routes are in `RouteNamingTests`,
/// file names in `FileLayoutTests`.
final class NamingTableTests: XCTestCase {
    func check(
        _ table: [(String, String)], _ rule: (String) -> String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for (input, expected) in table {
            XCTAssertEqual(rule(input), expected, "input \(input.debugDescription)", file: file, line: line)
        }
    }

    func testTypeNames() {
        check(
            [
                ("create_chat_completion", "CreateChatCompletion"),
                ("file_id", "FileID"),
                ("JSONSchema", "JSONSchema"),
                ("vector_store_ids", "VectorStoreIDs"),
                ("gpt-4.1", "Gpt4_1"),
                ("4o", "_4o"),
                ("realtime.session", "RealtimeSession"),
                ("MCP_tool", "MCPTool"),
                ("AUDIO", "Audio"),
                ("FILE_SEARCH", "FileSearch"),
                // Initialisms written in upper case in a mixed-case name are kept.
                ("PromptCacheTTLEnum", "PromptCacheTTLEnum"),
                ("RealtimeSessionCreateRequestGA", "RealtimeSessionCreateRequestGA"),
                ("FineTuneDPOMethod", "FineTuneDPOMethod"),
                ("C2PAProvenanceResult", "C2PAProvenanceResult"),
                ("OpenAIFile", "OpenAIFile"),
                ("HTTPError", "HTTPError"),
                // Reserved: a nested type cannot be named so, or it would hide what generated code uses.
                ("type", "TypeValue"),
                ("self", "SelfValue"),
                ("coding_keys", "CodingKeysValue"),
                ("", "Value"),
                ("--", "Value"),
            ], Naming.typeName)
    }

    func testMemberNames() {
        check(
            [
                ("file_id", "fileID"),
                ("image_urls", "imageURLs"),
                ("HTTPHeaders", "httpHeaders"),
                ("response.output_text.delta", "responseOutputTextDelta"),
                ("1_minute", "_1Minute"),
                ("gpt-4o-mini", "gpt4oMini"),
                ("type", "type"),
                ("default", "`default`"),
                ("self", "`self`"),
                ("Type", "type"),
                ("promptCacheTTL", "promptCacheTTL"),
                ("TTL_SECONDS", "ttlSeconds"),
                ("", "value"),
            ], Naming.memberName)
    }

    func testItemTypeNamesSingularizePlurals() {
        check(
            [
                ("messages", "Message"),
                ("entries", "Entry"),
                ("tools", "Tool"),
                ("status", "StatusItem"),
                ("analysis", "AnalysisItem"),
                ("address", "AddressItem"),
                ("data", "DataItem"),
                // Three letters or fewer are never singularized.
                ("ids", "IDsItem"),
            ], Naming.itemTypeName)
    }

    func testSynthesizedNamesAppendOneSuffixPerRole() {
        let stem = "CreateWidget"
        XCTAssertEqual(SynthesizedNames.requestBody(stem: stem), "CreateWidgetRequest")
        XCTAssertEqual(SynthesizedNames.multipartBody(stem: stem), "CreateWidgetForm")
        XCTAssertEqual(SynthesizedNames.streamEvent(stem: stem), "CreateWidgetEvent")
        XCTAssertEqual(SynthesizedNames.response(stem: stem), "CreateWidgetResponse")
        XCTAssertEqual(SynthesizedNames.parameter(stem: "List", parameter: "order_by"), "ListOrderBy")
        XCTAssertEqual(SynthesizedNames.dictionaryValue(of: "Metadata"), "MetadataValue")
        XCTAssertEqual(SynthesizedNames.webhookPayload(webhook: "batch.completed"), "WebhookBatchCompleted")
        XCTAssertEqual(SynthesizedNames.pagesMethod("list"), "listPages")
        XCTAssertEqual(SynthesizedNames.streamMethod("create"), "createStream")
    }

    func testAnonymousArrayCasesArePluralsOfTheirElement() {
        check(
            [
                ("string", "strings"),
                ("json", "values"),
                ("object", "objects"),
                ("inputItem", "InputItems"),
                ("entry", "Entries"),
                // An array of arrays: the element's plural becomes `…Array`, then plural again.
                ("strings", "StringArrays"),
                ("integers", "IntegerArrays"),
            ], UnionCaseNaming.arrayCase(elementCase:))
    }

    func testEnumMemberNamesAreUniqueAndAvoidTheTypesOwnMembers() {
        let names = Naming.enumMemberNames(["gpt-4.1", "gpt-41", "gpt-4.1", "rawValue", "default", "auto", "AUTO"])
        XCTAssertEqual(names.map(\.value), ["gpt-4.1", "gpt-41", "rawValue", "default", "auto", "AUTO"])
        XCTAssertEqual(names.map(\.name), ["gpt4_1", "gpt41", "rawValueValue", "`default`", "auto", "auto2"])
    }

    func testEscapingRoundTrips() {
        for name in ["default", "self", "in", "fileID"] {
            XCTAssertEqual(Naming.unescaped(Naming.escaped(name)), name)
        }
        XCTAssertEqual(Naming.escaped("in"), "`in`")
        XCTAssertEqual(Naming.escaped("fileID"), "fileID")
    }

    func testWordsSplitAtCaseChangesAndPunctuation() {
        XCTAssertEqual(Naming.words("fileId"), ["file", "Id"])
        XCTAssertEqual(Naming.words("JSONSchema"), ["JSON", "Schema"])
        XCTAssertEqual(Naming.words("gpt-4.1/mini"), ["gpt", "4", "1", "mini"])
        XCTAssertEqual(Naming.words("a2B"), ["a2", "B"])
    }
}
