import Foundation
import OpenAIGeneratorOpenAPI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIGeneratorCore

/// Types files by content: an area's files are named for their first type, and adding a type
/// changes the file that holds it, not the others.
final class FileLayoutTests: XCTestCase {
    static func units(_ names: [String], lines: Int = 100) -> [FileLayout.Unit] {
        names.sorted().map { FileLayout.Unit(name: $0, lines: lines) }
    }

    func testAnAreaWithinTheCapIsOneFileNamedForTheArea() {
        let files = FileLayout.files(area: "Files", units: Self.units(["A", "B", "C"]), lineCap: 4000)
        XCTAssertEqual(files.map(\.name), ["Files"])
        XCTAssertEqual(files.map(\.units), [0..<3])
    }

    func testALargerAreaIsCutAtAnchorsAndTheCapAndNamedForEachFirstType() {
        let names = (0..<400).map { "Type\($0)" }
        let units = Self.units(names)
        let files = FileLayout.files(area: "Shared", units: units, lineCap: 4000)
        XCTAssertGreaterThan(files.count, 10)
        XCTAssertEqual(files.first?.units.lowerBound, 0)
        XCTAssertEqual(files.last?.units.upperBound, units.count)
        for (file, next) in zip(files, files.dropFirst()) {
            XCTAssertEqual(file.units.upperBound, next.units.lowerBound, "files cover every type once, in order")
        }
        for file in files {
            // The first file keeps the area's name: a type sorted before the others cannot rename it.
            let first = units[file.units.lowerBound].name
            XCTAssertEqual(file.name, file.units.lowerBound == 0 ? "Shared" : "Shared+\(first)")
            let lines = units[file.units].reduce(0) { $0 + $1.lines + 1 }
            XCTAssertLessThanOrEqual(lines, 4000, file.name)
        }
        // Cuts are before first-level anchors where the pieces fit the cap.
        XCTAssertTrue(files.dropFirst().contains { FileLayout.isAnchor(units[$0.units.lowerBound].name) })
    }

    func testATypeLargerThanTheCapHasAFileOfItsOwn() {
        var units = Self.units((0..<60).map { "T\($0)" })
        units[30].lines = 9000
        let files = FileLayout.files(area: "Other", units: units, lineCap: 4000)
        XCTAssertTrue(files.contains { $0.units == 30..<31 }, "\(files)")
    }

    func testAddingATypeChangesOnlyTheFileThatHoldsIt() {
        // Wherever a type that is not an anchor goes, whether its file is near the cap or not.
        for position in stride(from: 0, to: 400, by: 23) {
            for size in [100, 900] {
                checkAddingAType(after: position, lines: size)
            }
        }
    }

    func checkAddingAType(after position: Int, lines: Int, file: StaticString = #filePath, line: UInt = #line) {
        let names = (0..<400).map { "Type\($0)" }
        let before = FileLayout.files(area: "Shared", units: Self.units(names), lineCap: 4000)
        let added = ["a", "b", "c", "d", "e"].map { "Type\(position)" + $0 }.first {
            FileLayout.hash($0) % 2 != 0
        }!
        var afterUnits = Self.units(names)
        afterUnits.append(FileLayout.Unit(name: added, lines: lines))
        afterUnits.sort { $0.name < $1.name }
        let after = FileLayout.files(area: "Shared", units: afterUnits, lineCap: 4000)
        let beforeUnits = Self.units(names)
        // Every file but the one that holds the new type has the same types as before, except near
        // it: the file it took over the cap is cut again, and where a piece reaches half the cap
        // sooner an anchor cut can move, which joins the next piece (at most two files).
        let holder = after.first { afterUnits[$0.units].contains { $0.name == added } }!
        var unchanged = 0
        for file in after where file.name != holder.name {
            guard let old = before.first(where: { $0.name == file.name }),
                afterUnits[file.units].map(\.name) == beforeUnits[old.units].map(\.name)
            else { continue }
            unchanged += 1
        }
        XCTAssertGreaterThanOrEqual(
            unchanged, before.count - 2, "added \(added) (\(lines) lines)", file: file, line: line)
        XCTAssertLessThanOrEqual(after.count - before.count, 2, "added \(added)", file: file, line: line)
    }

    func testATypeLargerThanTheCapHasItsNestedTypesInExtensionsInFilesOfTheirOwn() throws {
        var spec = """
            openapi: 3.1.0
            info: {title: split, version: 1.0.0}
            paths: {}
            components:
              schemas:
                Shape:
                  oneOf:

            """
        for name in ["circle", "square", "triangle"] {
            spec += """
                        - type: object
                          properties:
                            type: {type: string, enum: [\(name)]}
                            size: {type: number}
                            label: {type: string}
                            color: {type: string}
                          required: [type, size]

                """
        }
        spec += "      discriminator: {propertyName: type}\n"
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration(lineCap: 100)).run(
            Array(spec.utf8), file: "split.yaml", sha256: String(repeating: "0", count: 64))
        let files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        // Shape's own file, and the extensions with its nested types in files named for them (the
        // first of each file), every file under the cap but for a single type.
        let paths = files.keys.filter { $0.hasPrefix("Types/") }.sorted()
        XCTAssertGreaterThan(paths.count, 1, "\(paths)")
        let main = try XCTUnwrap(files["Types/Shared/Shared.swift"], "\(paths)")
        XCTAssertTrue(main.hasPrefix(OutputWriter.headerPrefix))
        XCTAssertTrue(main.contains("public indirect enum Shape: Codable, MemberwiseEquatable, Sendable"))
        XCTAssertTrue(main.contains("case circle(Shape.Circle)"))
        // The enum closes before any extension.
        let enumEnd = try XCTUnwrap(main.range(of: "    case unknown(JSONValue)"), main)
        if let firstExtension = main.range(of: "\nextension Shape {\n") {
            XCTAssertLessThan(enumEnd.lowerBound, firstExtension.lowerBound)
        }
        for nested in ["Circle", "Square", "Triangle"] {
            let holders = paths.filter {
                files[$0]!.contains("\n    public struct \(nested): Codable, MemberwiseEquatable, Sendable")
            }
            XCTAssertEqual(holders.count, 1, "\(nested): \(holders)")
            XCTAssertTrue(files[holders[0]]!.contains("\nextension Shape {\n"), holders[0])
        }
        for path in paths where path != "Types/Shared/Shared.swift" {
            let first = path.dropFirst("Types/Shared/Shared+Shape+".count).dropLast(".swift".count)
            XCTAssertTrue(files[path]!.contains("\n    public struct \(first): Codable"), path)
        }
    }

    /// A root resource's file is cut at the cap like an area, between resources: the root keeps
    /// the file named for it, each later piece is named for its first resource, and every piece
    /// still holds whole resources.
    func testAResourceFileLargerThanTheCapIsSplitBetweenResources() throws {
        var spec = """
            openapi: 3.1.0
            info: {title: resources, version: 1.0.0}
            paths:

            """
        for (path, parameter) in [
            ("/things", nil), ("/things/{thing_id}", "thing_id"), ("/things/{thing_id}/parts", "thing_id"),
            ("/things/{thing_id}/labels", "thing_id"),
        ] {
            spec += "  \(path):\n"
            for method in ["get", "post"] {
                spec += """
                        \(method):
                          operationId: \(method)\(path.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))

                    """
                if let parameter {
                    spec += """
                              parameters:
                                - {name: \(parameter), in: path, required: true, schema: {type: string}}

                        """
                }
                spec += """
                          responses:
                            '200':
                              description: ok
                              content:
                                application/json:
                                  schema: {type: object, properties: {id: {type: string}}}

                    """
            }
        }
        func resourceFiles(lineCap: Int) throws -> [String: String] {
            let result = try GeneratorPipeline(configuration: GeneratorConfiguration(lineCap: lineCap)).run(
                Array(spec.utf8), file: "resources.yaml", sha256: String(repeating: "0", count: 64))
            return Dictionary(
                uniqueKeysWithValues: result.files.filter { $0.path.hasPrefix("Resources/") }.map {
                    ($0.path, $0.contents)
                })
        }
        let whole = try resourceFiles(lineCap: 4000)
        XCTAssertEqual(whole.keys.sorted(), ["Resources/ThingsAPI.swift"])
        let wholeLines = whole["Resources/ThingsAPI.swift"]!.split(separator: "\n", omittingEmptySubsequences: false)
            .count
        let cap = wholeLines / 2
        let split = try resourceFiles(lineCap: cap)
        XCTAssertGreaterThan(split.count, 1, split.keys.sorted().description)
        XCTAssertTrue(split.keys.contains("Resources/ThingsAPI.swift"))
        for (path, contents) in split where path != "Resources/ThingsAPI.swift" {
            XCTAssertTrue(path.hasPrefix("Resources/ThingsAPI+Things"), path)
            XCTAssertFalse(contents.contains("extension OpenAIClient"), path)
        }
        XCTAssertTrue(split["Resources/ThingsAPI.swift"]!.contains("extension OpenAIClient"))
        // Every resource struct is declared exactly once, whole, in one of the pieces.
        let all = split.values.joined()
        for type in ["ThingsAPI", "ThingsLabelsAPI", "ThingsPartsAPI"] {
            XCTAssertEqual(all.components(separatedBy: "public struct \(type): Sendable {").count, 2, type)
        }
        XCTAssertEqual(
            all.components(separatedBy: "public func ").count,
            whole.values.joined().components(separatedBy: "public func ").count)
    }

    /// On the locked spec: the large types operations send and return have files named after them
    /// in their area's folder; there is no `Other` area; the type index names every top-level
    /// type's file, and each file it names declares that type.
    func testTheLockedSpecsNamedTypesHaveTheirOwnFilesAndTheIndexFindsEveryType() throws {
        let (bytes, path) = try GeneratorRealSpecTests.lockedSpec()
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            bytes, file: path, sha256: SHA256.hex(bytes))
        let files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        for (type, file) in [
            ("Response", "Types/Responses/Response.swift"), ("CreateResponse", "Types/Responses/CreateResponse.swift"),
            ("CreateChatCompletionRequest", "Types/Chat/CreateChatCompletionRequest.swift"),
            ("ResponseStreamEvent", "Types/Responses/ResponseStreamEvent.swift"),
        ] {
            let contents = try XCTUnwrap(files[file], file)
            XCTAssertTrue(
                contents.contains("\npublic struct \(type):") || contents.contains("\npublic indirect enum \(type):"),
                file)
        }
        XCTAssertFalse(files.keys.contains { $0.contains("/Other") || $0.contains("Other+") })
        for (module, prefix) in [("OpenAI", ""), ("OpenAIAdmin", "Admin/")] {
            let index = try XCTUnwrap(files[prefix + "TypeIndex.swift"], module)
            var entries = 0
            for line in index.split(separator: "\n") where line.contains(" → ") {
                let parts = line.dropFirst(3).components(separatedBy: " → ")
                let type = parts[0]
                let file = prefix + parts[1].components(separatedBy: " (")[0]
                let contents = try XCTUnwrap(files[file], "\(type): \(file)")
                XCTAssertTrue(
                    ["struct", "enum", "indirect enum", "typealias"].contains {
                        contents.contains("\npublic \($0) \(type)")
                    }, "\(type) is not declared in \(file)")
                entries += 1
            }
            let declared = files.filter {
                $0.key.hasPrefix(prefix + "Types/") && (prefix == "Admin/" || !$0.key.hasPrefix("Admin/"))
            }
            .values.flatMap {
                $0.split(separator: "\n").filter { $0.hasPrefix("public ") && !$0.hasPrefix("public extension") }
            }
            XCTAssertEqual(entries, declared.count, module)
        }
    }

    /// The locked spec plus one schema: only the file that holds the new type, the type index and
    /// the manifest change.
    func testAddingOneSchemaToTheLockedSpecChangesOnlyItsFileAndTheManifest() throws {
        let (bytes, path) = try GeneratorRealSpecTests.lockedSpec()
        let text = String(decoding: bytes, as: UTF8.self)
        let marker = "\ncomponents:\n  schemas:\n"
        let range = try XCTUnwrap(text.range(of: marker), "the spec has no components/schemas")
        let added = """
                ZebraCrossingNote:
                  type: object
                  description: A schema nothing refers to and no operation reaches, so it goes in the Shared area.
                  properties:
                    text: {type: string}
                    crossed_at: {type: integer}

            """
        let grown = text.replacingCharacters(in: range, with: marker + added)
        func generate(_ spec: String) throws -> [String: String] {
            let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
                Array(spec.utf8), file: path, sha256: SHA256.hex(Array(spec.utf8)))
            return Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        }
        let before = try generate(text)
        let after = try generate(grown)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        XCTAssertEqual(changed.count, 3, "\(changed)")
        XCTAssertTrue(changed.contains("Manifest.swift"), "\(changed)")
        XCTAssertTrue(changed.contains("TypeIndex.swift"), "\(changed)")
        XCTAssertTrue(
            after["TypeIndex.swift"]!.contains(
                "// ZebraCrossingNote → Types/Shared/Shared.swift (#/components/schemas/ZebraCrossingNote)\n"))
        let holder = try XCTUnwrap(changed.first { $0 != "Manifest.swift" && $0 != "TypeIndex.swift" })
        XCTAssertEqual(holder, "Types/Shared/Shared.swift")
        XCTAssertTrue(after[holder]!.contains("public struct ZebraCrossingNote: Codable"), holder)
        XCTAssertNotNil(before[holder], "the type joins an existing file: \(holder)")
    }

    /// With the previous generation's files, every type stays in its file: a new type joins the
    /// file of the type before it, a file taken over the cap is cut inside itself (its first
    /// piece keeps its name) and no other file changes; without previous files, the layout of
    /// the spec alone.
    func testThePreviousLayoutKeepsEveryTypeInItsFile() {
        let names = (0..<400).map { "Type\($0)" }
        let units = Self.units(names)
        let fresh = FileLayout.files(area: "Shared", units: units, lineCap: 4000)
        var previous: [String: String] = [:]
        for file in fresh { for unit in units[file.units] { previous[unit.name] = file.name } }
        XCTAssertEqual(
            FileLayout.files(area: "Shared", units: units, lineCap: 4000, previous: previous).map(\.name),
            fresh.map(\.name))
        XCTAssertEqual(
            FileLayout.files(area: "Shared", units: units, lineCap: 4000, previous: [:]).map(\.units),
            fresh.map(\.units))

        // New types: one sorted first (joins the first file), one after the first type of the
        // third file, and a large one that takes the second file over the cap.
        let second = units[fresh[1].units.lowerBound].name
        let third = units[fresh[2].units.lowerBound].name
        var grown = units
        grown.append(FileLayout.Unit(name: "A0", lines: 50))
        grown.append(FileLayout.Unit(name: third + "x", lines: 50))
        let secondLines = units[fresh[1].units].reduce(0) { $0 + $1.lines + 1 }
        grown.append(FileLayout.Unit(name: second + "x", lines: 4000 - secondLines + 200))
        grown.sort { $0.name < $1.name }
        let after = FileLayout.files(area: "Shared", units: grown, lineCap: 4000, previous: previous)
        func holder(_ name: String) -> String { after.first { grown[$0.units].contains { $0.name == name } }!.name }
        XCTAssertEqual(holder("A0"), fresh[0].name)
        XCTAssertEqual(holder(third + "x"), fresh[2].name)
        var moved: [String] = []
        for unit in units where holder(unit.name) != previous[unit.name] { moved.append(unit.name) }
        let secondFile = Set(units[fresh[1].units].map(\.name))
        XCTAssertFalse(moved.isEmpty, "the second file went over the cap and was cut")
        XCTAssertTrue(moved.allSatisfy(secondFile.contains), "only types of the file over the cap move: \(moved)")
        XCTAssertTrue(after.contains { $0.name == fresh[1].name }, "its first piece keeps its name")
        for file in after where file.units.count > 1 {
            XCTAssertLessThanOrEqual(grown[file.units].reduce(0) { $0 + $1.lines + 1 }, 4000, file.name)
        }
        // A name that is not one of the area's files (a type's own file, another area) is no
        // previous file: the unit joins its neighbour's.
        let foreign = previous.merging(["Type1": "Type1", "Type2": "Other+Type2"]) { _, new in new }
        let kept = FileLayout.files(area: "Shared", units: units, lineCap: 4000, previous: foreign)
        XCTAssertEqual(kept.map(\.units), fresh.map(\.units))
    }

    /// A file keeps its name after its first type leaves; when that type comes back large, in the
    /// file before, and that file is cut before it, the new piece takes another name: no two files
    /// share one, and the types of the file that kept the name stay in it. An area holding the
    /// nested types of a type larger than the cap is laid out from the spec alone.
    func testAPieceCutFromAKeptFileNeverTakesAnotherFilesName() {
        let units = Self.units((0..<400).map { "Type\($0)" })
        let fresh = FileLayout.files(area: "Shared", units: units, lineCap: 4000)
        XCTAssertGreaterThan(fresh.count, 3)
        var checked = 0
        for index in 2..<fresh.count {
            let leaving = units[fresh[index].units.lowerBound].name
            var previous: [String: String] = [:]
            for file in fresh {
                for unit in units[file.units] where unit.name != leaving { previous[unit.name] = file.name }
            }
            // It comes back large: its file before goes over the cap and is cut.
            var back = units
            back[fresh[index].units.lowerBound].lines = 3000
            let after = FileLayout.files(area: "Shared", units: back, lineCap: 4000, previous: previous)
            XCTAssertEqual(Set(after.map(\.name)).count, after.count, "\(leaving): \(after.map(\.name))")
            let kept = after.first { $0.name == fresh[index].name }
            XCTAssertEqual(
                kept.map { back[$0.units].map(\.name) }, units[fresh[index].units].dropFirst().map(\.name), leaving)
            if after.contains(where: { $0.name.hasPrefix(fresh[index].name) && $0.name != fresh[index].name }) {
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0, "some cut piece would have taken a kept file's name")

        var nested = units
        nested.append(FileLayout.Unit(name: "Type1.Nested", lines: 100))
        nested.sort { $0.name < $1.name }
        var previous: [String: String] = [:]
        for file in fresh { for unit in units[file.units] { previous[unit.name] = "Shared" } }
        XCTAssertEqual(
            FileLayout.files(area: "Shared", units: nested, lineCap: 4000, previous: previous).map(\.units),
            FileLayout.files(area: "Shared", units: nested, lineCap: 4000).map(\.units))
    }

    /// A spec update in which operations of another area come to reach a type as directly as its
    /// own: generated over the previous output (its type index), the type keeps its folder and
    /// file; generated afresh it moves to `Shared`. Once no operation of its area reaches it, it
    /// moves.
    func testAnUpdateKeepsATypeInItsAreaWhileItsAreaStillReachesIt() throws {
        func spec(notes: Bool, pins: Bool) -> String {
            var text = """
                openapi: 3.1.0
                info: {title: areas, version: 1.0.0}
                paths:

                """
            for (path, tag, present) in [("/notes", "Notes", notes), ("/pins", "Pins", pins)] where present {
                text += """
                      \(path):
                        get:
                          operationId: get\(tag)
                          tags: [\(tag)]
                          responses:
                            '200':
                              description: ok
                              content:
                                application/json:
                                  schema: {$ref: '#/components/schemas/Note'}

                    """
            }
            text += """
                components:
                  schemas:
                    Note:
                      type: object
                      properties:
                        text: {type: string}

                """
            return text
        }
        func generate(_ text: String, previous: PreviousLayout) throws -> [String: String] {
            let result = try GeneratorPipeline(configuration: GeneratorConfiguration(previousLayout: previous)).run(
                Array(text.utf8), file: "areas.yaml", sha256: String(repeating: "0", count: 64))
            return Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        }
        func noteFile(_ files: [String: String]) -> String? {
            files.first { $0.key.hasPrefix("Types/") && $0.value.contains("public struct Note: Codable") }?.key
        }
        let first = try generate(spec(notes: true, pins: false), previous: PreviousLayout())
        XCTAssertEqual(noteFile(first), "Types/Notes/Notes.swift")
        let layout = PreviousLayout(typeIndexes: [("", try XCTUnwrap(first["TypeIndex.swift"]))])
        XCTAssertEqual(layout.areas, ["Note": "Notes"])
        XCTAssertEqual(layout.files, ["Note": "Types/Notes/Notes.swift"])

        let both = spec(notes: true, pins: true)
        XCTAssertEqual(noteFile(try generate(both, previous: PreviousLayout())), "Types/Shared/Shared.swift")
        let kept = try generate(both, previous: layout)
        XCTAssertEqual(noteFile(kept), "Types/Notes/Notes.swift")
        // Regenerating over that output changes nothing.
        let again = PreviousLayout(typeIndexes: [("", try XCTUnwrap(kept["TypeIndex.swift"]))])
        XCTAssertEqual(try generate(both, previous: again), kept)

        XCTAssertEqual(
            noteFile(try generate(spec(notes: false, pins: true), previous: layout)), "Types/Pins/Pins.swift")
        // Lines that are not index entries give nothing.
        XCTAssertEqual(
            PreviousLayout(typeIndexes: [("", "// Note → Sources/x.swift\nNote → Types/A/A.swift\n")]), PreviousLayout()
        )
    }
}
