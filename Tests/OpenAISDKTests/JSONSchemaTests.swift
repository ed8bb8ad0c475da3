import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

// Types as an app writes them: synthesized Decodable, nested types, optionals, arrays,
// dictionaries, enums, recursion.

private struct Weather: Decodable, JSONSchemaDescribable {
    enum Unit: String, Decodable, CaseIterable { case celsius, fahrenheit }
    struct Reading: Decodable {
        var hour: Int
        var temperature: Double
    }

    var city: String
    var unit: Unit
    var readings: [Reading]
    var note: String?
    var isRaining: Bool

    static var jsonSchemaDescription: String? { "The weather in one city." }
    static var jsonSchemaPropertyDescriptions: [String: String] { ["city": "The city's name."] }
}

private final class Comment: Decodable {
    var text: String
    var replies: [Comment]
    var parent: Comment?
}

private struct Tagged: Decodable {
    var labels: [String: Int]
}

private struct Event: Decodable {
    var name: String
    var startsAt: Date
}

private enum Mood: String, Decodable { case happy, sad }
private struct Diary: Decodable {
    var mood: Mood
}

private struct Positive: Decodable {
    var value: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try container.decode(Int.self)
        guard value > 0 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be positive")
        }
    }
}

private struct Order: Decodable {
    var quantity: Positive
}

/// A type that states its schema: a tree whose nodes name themselves.
private struct Node: JSONSchemaConvertible {
    var value: String
    var children: [Node]

    static var jsonSchema: JSONSchema {
        .object(
            [
                .init("value", .string(description: "The node's value.")),
                .init("children", .array(of: .schema(of: Node.self))),
            ], description: "A tree node.")
    }
}

private struct Deep: Decodable {
    struct L1: Decodable { var l2: L2 }
    struct L2: Decodable { var l3: L3 }
    struct L3: Decodable { var l4: L4 }
    struct L4: Decodable { var l5: L5 }
    struct L5: Decodable { var l6: L6 }
    struct L6: Decodable { var l7: L7 }
    struct L7: Decodable { var l8: L8 }
    struct L8: Decodable { var l9: L9 }
    struct L9: Decodable { var l10: L10 }
    struct L10: Decodable { var leaf: String }
    var l1: L1
}

/// A type that states its schema because its JSON holds a date, used as a plain member.
private struct Meeting: JSONSchemaConvertible {
    var at: Date
    var room: String

    static var jsonSchema: JSONSchema {
        .object([.init("at", .string(format: "date-time")), .init("room", .string())])
    }
}

private struct Calendar: Decodable {
    var title: String
    var next: Meeting
    var link: URL
}

/// An enum with associated values states its schema (synthesized: `{"circle": {"radius": 1}}`).
private enum Shape: JSONSchemaConvertible {
    case circle(radius: Double)
    case square(side: Double)

    static var jsonSchema: JSONSchema {
        .anyOf([
            .object([.init("circle", .object([.init("radius", .number())]))]),
            .object([.init("square", .object([.init("side", .number())]))]),
        ])
    }
}

private struct Drawing: Decodable {
    var shape: Shape
}

private enum Level: Int, Decodable { case low, high }
private struct Alarm: Decodable {
    var level: Level
}

private struct Scores: Decodable {
    var byRound: [Int: Double]
}

private struct ByID: Decodable {
    var names: [UUID: String]
}

/// A hand-written decoder that reads `null` through `decodeNil(forKey:)`.
private struct Maybe: Decodable {
    enum CodingKeys: String, CodingKey { case count }
    var count: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decodeNil(forKey: .count) ? nil : try container.decode(Int.self, forKey: .count)
    }
}

final class JSONSchemaTests: XCTestCase {
    func testAStatedTypeHeldByADerivedOneIsMadeFromItsSchemaNotItsDecoder() throws {
        let calendar = JSONValue.object(try JSONSchemaDocument(for: Calendar.self).jsonObject(strict: true))
        XCTAssertEqual(calendar["properties"]?["next"], ["$ref": "#/$defs/Meeting"])
        XCTAssertEqual(calendar["$defs"]?["Meeting"]?["properties"]?["at"], ["type": "string", "format": "date-time"])
        // OpenAI's strict mode has no `uri` format: a URL is a plain string.
        XCTAssertEqual(calendar["properties"]?["link"], ["type": "string"])
        let drawing = JSONValue.object(try JSONSchemaDocument(for: Drawing.self).jsonObject(strict: true))
        XCTAssertEqual(drawing["properties"]?["shape"]?["anyOf"]?.arrayValue?.count, 2)
    }

    func testEnumsWithoutCaseIterableAndOtherDictionariesAreErrorsNotWrongSchemas() throws {
        XCTAssertThrowsError(try JSONSchemaDocument(for: Alarm.self)) { error in
            XCTAssertEqual((error as? JSONSchemaError)?.path, "Alarm.level")
            XCTAssertTrue("\(error)".contains("adopt CaseIterable"), "\(error)")
        }
        XCTAssertThrowsError(try JSONSchemaDocument(for: ByID.self)) { error in
            XCTAssertEqual((error as? JSONSchemaError)?.path, "ByID.names")
        }
        let scores = JSONValue.object(try JSONSchemaDocument(for: Scores.self).jsonObject(strict: false))
        XCTAssertEqual(
            scores["properties"]?["byRound"], ["type": "object", "additionalProperties": ["type": "number"]])
    }

    func testDecodeNilMakesAMemberNullable() throws {
        let maybe = JSONValue.object(try JSONSchemaDocument(for: Maybe.self).jsonObject(strict: false))
        XCTAssertEqual(maybe["properties"]?["count"], ["type": ["integer", "null"]])
        XCTAssertEqual(maybe["required"], ["count"])
    }

    func testReferencesInAHandWrittenSchemaFollowTheSameRules() throws {
        let root = JSONSchema.object([
            .init("sky", .schema(of: Weather.Unit.self)),
            .init("name", .schema(of: String.self, description: "A name.")),
            .init("children", .array(of: .schema(of: Node.self, description: "A child."))),
        ])
        let document = try JSONSchemaDocument(root: root)
        XCTAssertEqual(document.definitions.map(\.name), ["Node"])
        let strict = JSONValue.object(try document.jsonObject(strict: true))
        XCTAssertEqual(strict["properties"]?["sky"], ["type": "string", "enum": ["celsius", "fahrenheit"]])
        XCTAssertEqual(strict["properties"]?["name"], ["type": "string", "description": "A name."])
        // Written in place, with its description (strict mode takes no keyword beside `$ref`).
        XCTAssertEqual(strict["properties"]?["children"]?["items"]?["description"], "A child.")
        XCTAssertNil(strict["properties"]?["children"]?["items"]?["$ref"])
        // A reference to the root cannot be written in place: its description is left out.
        let node = JSONValue.object(
            try JSONSchemaDocument(for: Node.self).jsonObject(strict: true))
        XCTAssertEqual(node["properties"]?["children"]?["items"], ["$ref": "#"])
    }

    func testASynthesizedDecodableStructIsDerivedMemberByMember() throws {
        let document = try JSONSchemaDocument(for: Weather.self)
        let plain = JSONValue.object(try document.jsonObject(strict: false))
        let expected: JSONValue = [
            "type": "object",
            "description": "The weather in one city.",
            "properties": [
                "city": ["type": "string", "description": "The city's name."],
                "unit": ["type": "string", "enum": ["celsius", "fahrenheit"]],
                "readings": ["type": "array", "items": ["$ref": "#/$defs/Reading"]],
                "note": ["type": ["string", "null"]],
                "isRaining": ["type": "boolean"],
            ],
            "required": ["city", "unit", "readings", "isRaining"],
            "additionalProperties": false,
            "$defs": [
                "Reading": [
                    "type": "object",
                    "properties": ["hour": ["type": "integer"], "temperature": ["type": "number"]],
                    "required": ["hour", "temperature"],
                    "additionalProperties": false,
                ]
            ],
        ]
        XCTAssertEqual(plain, expected)
        if case .object(let properties) = document.root.kind {
            XCTAssertEqual(properties.map(\.name), ["city", "unit", "readings", "note", "isRaining"])
        } else {
            XCTFail("\(document.root)")
        }
    }

    func testStrictFormMakesEveryMemberRequiredAndOptionalOnesNullable() throws {
        let strict = JSONValue.object(try JSONSchemaDocument(for: Weather.self).jsonObject(strict: true))
        XCTAssertEqual(strict["required"], ["city", "unit", "readings", "note", "isRaining"])
        XCTAssertEqual(strict["properties"]?["note"], ["type": ["string", "null"]])
        XCTAssertEqual(strict["additionalProperties"], false)
        XCTAssertEqual(strict["$defs"]?["Reading"]?["additionalProperties"], false)
    }

    func testARecursiveClassRefersToTheRootAsHash() throws {
        let document = try JSONSchemaDocument(for: Comment.self)
        XCTAssertTrue(document.definitions.isEmpty, "\(document.definitions)")
        let strict = JSONValue.object(try document.jsonObject(strict: true))
        XCTAssertEqual(
            strict,
            [
                "type": "object",
                "properties": [
                    "text": ["type": "string"],
                    "replies": ["type": "array", "items": ["$ref": "#"]],
                    "parent": ["anyOf": [["$ref": "#"], ["type": "null"]]],
                ],
                "required": ["text", "replies", "parent"],
                "additionalProperties": false,
            ])
    }

    func testAStatedSchemaNamesItselfThroughDefs() throws {
        let document = try JSONSchemaDocument(for: Node.self)
        let json = JSONValue.object(try document.jsonObject(strict: true))
        XCTAssertEqual(json["description"], "A tree node.")
        XCTAssertEqual(json["properties"]?["children"], ["type": "array", "items": ["$ref": "#"]])
        XCTAssertEqual(json["properties"]?["value"], ["type": "string", "description": "The node's value."])
    }

    func testADescribedReferenceIsWrittenInPlaceInStrictMode() throws {
        let root = JSONSchema.object([.init("weather", .schema(of: Weather.self, description: "Today's weather."))])
        let document = try JSONSchemaDocument(root: root)
        let plain = JSONValue.object(try document.jsonObject(strict: false))
        XCTAssertEqual(plain["properties"]?["weather"], ["$ref": "#/$defs/Weather", "description": "Today's weather."])
        let strict = JSONValue.object(try document.jsonObject(strict: true))
        let weather = try XCTUnwrap(strict["properties"]?["weather"])
        XCTAssertNil(weather["$ref"])
        XCTAssertEqual(weather["description"], "Today's weather.")
        XCTAssertEqual(weather["properties"]?["city"], ["type": "string", "description": "The city's name."])
        // Weather's own definition is not needed any more; Reading, which it refers to, is.
        XCTAssertNil(strict["$defs"]?["Weather"])
        XCTAssertNotNil(strict["$defs"]?["Reading"])
    }

    func testWhatCannotBeDerivedIsAnErrorNamingTheMember() {
        XCTAssertThrowsError(try JSONSchemaDocument(for: Event.self)) { error in
            XCTAssertEqual((error as? JSONSchemaError)?.path, "Event.startsAt")
            XCTAssertTrue("\(error)".contains("depends on the JSONDecoder's strategies"), "\(error)")
        }
        XCTAssertThrowsError(try JSONSchemaDocument(for: Diary.self)) { error in
            let error = error as? JSONSchemaError
            XCTAssertEqual(error?.path, "Diary.mood")
            XCTAssertTrue(error?.message.contains("adopt CaseIterable") == true, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try JSONSchemaDocument(for: Order.self)) { error in
            let error = error as? JSONSchemaError
            XCTAssertEqual(error?.path, "Order.quantity")
            XCTAssertTrue(error?.message.contains("must be positive") == true, "\(String(describing: error))")
        }
    }

    func testStrictModeRejectsWhatItCannotExpressBeforeAnyRequest() throws {
        let tagged = try JSONSchemaDocument(for: Tagged.self)
        XCTAssertEqual(
            JSONValue.object(try tagged.jsonObject(strict: false))["properties"]?["labels"],
            ["type": "object", "additionalProperties": ["type": "integer"]])
        XCTAssertThrowsError(try tagged.jsonObject(strict: true)) { error in
            XCTAssertEqual((error as? JSONSchemaError)?.path, "#/properties/labels")
        }
        XCTAssertThrowsError(try ResponseFormatJSONSchema(Tagged.self)) { error in
            XCTAssertTrue(error is JSONSchemaError)
        }
        XCTAssertThrowsError(try JSONSchemaDocument(root: .anyOf([.string(), .integer()])).jsonObject(strict: true)) {
            error in
            XCTAssertEqual((error as? JSONSchemaError)?.path, "#")
        }
        let deep = try JSONSchemaDocument(for: Deep.self)
        XCTAssertNoThrow(try deep.jsonObject(strict: false))
        XCTAssertThrowsError(try deep.jsonObject(strict: true)) { error in
            XCTAssertTrue("\(error)".contains("11 levels of object nesting; strict mode allows 10"), "\(error)")
        }
        var limits = JSONSchemaDocument.StrictLimits()
        limits.totalEnumValues = 1
        XCTAssertThrowsError(try JSONSchemaDocument(for: Weather.self).jsonObject(strict: true, limits: limits)) {
            error in
            XCTAssertEqual("\(error)", "#: 2 enum values; strict mode allows 1")
        }
    }

    func testTheRequestTypesCarryTheStrictSchema() throws {
        let format = try ResponseFormatJSONSchema(Weather.self)
        XCTAssertEqual(format.jsonSchema.name, "Weather")
        XCTAssertEqual(format.jsonSchema.strict, true)
        XCTAssertEqual(format.jsonSchema.schema?["required"]?.arrayValue?.count, 5)
        let text = try TextResponseFormatJSONSchema(Weather.self, name: "weather", strict: false)
        XCTAssertEqual(text.name, "weather")
        XCTAssertEqual(text.schema["required"]?.arrayValue?.count, 4)
        let tool = try CreateChatCompletionRequest.Tool.function(
            name: "get_weather", description: "Looks up the weather.", arguments: Weather.self)
        guard case .function(let function) = tool else { return XCTFail("\(tool)") }
        XCTAssertEqual(function.function.name, "get_weather")
        XCTAssertEqual(function.function.parameters?["type"], "object")
        let call = ChatCompletionMessageToolCall.Function(
            name: "get_weather",
            arguments:
                #"{"city":"Oslo","unit":"celsius","readings":[{"hour":9,"temperature":-3.5}],"note":null,"isRaining":false}"#
        )
        let arguments = try call.decodeArguments(as: Weather.self)
        XCTAssertEqual(arguments.city, "Oslo")
        XCTAssertEqual(arguments.readings.first?.temperature, -3.5)
        XCTAssertEqual(JSONSchemaDocument.apiName(for: [Weather].self), "Array_Weather_")
    }
}

/// `.text` on transcription and translation replies, whatever their variant.
final class TranscriptionTextTests: XCTestCase {
    func testEveryVariantGivesItsText() throws {
        let plain: AudioTranscriptionsAPI.CreateResponseValue = try (["text": "Hello."] as JSONValue).decode()
        XCTAssertEqual(plain.text, "Hello.")
        let verbose: AudioTranscriptionsAPI.CreateResponseValue = try
            ([
                "task": "transcribe", "language": "english", "duration": 1.5, "text": "Hello there.",
                "segments": [], "words": [],
            ] as JSONValue).decode()
        XCTAssertEqual(verbose.text, "Hello there.")
        XCTAssertEqual(AudioTranscriptionsAPI.CreateResponseValue.unknown("raw text").text, "raw text")
        XCTAssertEqual(AudioTranscriptionsAPI.CreateResponseValue.unknown(["other": 1]).text, nil)
        let translation: AudioTranslationsAPI.CreateResponseValue = try (["text": "Bonjour."] as JSONValue).decode()
        XCTAssertEqual(translation.text, "Bonjour.")
    }
}
