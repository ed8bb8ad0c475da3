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
            XCTAssertEqual(file.name, "Shared+\(units[file.units.lowerBound].name)")
            let lines = units[file.units].reduce(0) { $0 + $1.lines + 1 }
            XCTAssertLessThanOrEqual(lines, 4000, file.name)
            // Every cut but a forced one is before an anchor.
            let start = units[file.units.lowerBound].name
            if file.units.lowerBound > 0 && !FileLayout.isAnchor(start) {
                let before = files.first { $0.units.upperBound == file.units.lowerBound }!
                XCTAssertGreaterThan(units[before.units].reduce(0) { $0 + $1.lines + 1 } + 101, 4000, start)
            }
        }
    }

    func testATypeLargerThanTheCapHasAFileOfItsOwn() {
        var units = Self.units((0..<60).map { "T\($0)" })
        units[30].lines = 9000
        let files = FileLayout.files(area: "Other", units: units, lineCap: 4000)
        XCTAssertTrue(files.contains { $0.units == 30..<31 }, "\(files)")
    }

    func testAddingATypeChangesOnlyTheFileThatHoldsIt() {
        let names = (0..<400).map { "Type\($0)" }
        let before = FileLayout.files(area: "Shared", units: Self.units(names), lineCap: 4000)
        // A name that is not an anchor, sorted into the middle.
        let added = ["Type200a", "Type200b", "Type200c", "Type200d"].first { !FileLayout.isAnchor($0) }!
        let afterUnits = Self.units(names + [added])
        let after = FileLayout.files(area: "Shared", units: afterUnits, lineCap: 4000)
        let beforeNames = Set(before.map(\.name))
        let afterNames = Set(after.map(\.name))
        XCTAssertEqual(beforeNames, afterNames, "no file is renamed")
        let beforeUnits = Self.units(names)
        var changed: [String] = []
        for file in after {
            let old = before.first { $0.name == file.name }!
            if afterUnits[file.units].map(\.name) != beforeUnits[old.units].map(\.name) { changed.append(file.name) }
        }
        XCTAssertEqual(changed.count, 1, "\(changed)")
        let holder = after.first { afterUnits[$0.units].contains { $0.name == added } }!
        XCTAssertEqual(changed, [holder.name])
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
        let result = try SwiftGenerator.generate(
            specBytes: Array(spec.utf8), specFile: "split.yaml", sha256: String(repeating: "0", count: 64),
            configuration: GeneratorConfiguration(lineCap: 100))
        let files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        // Shape and the extension with Circle fit one file; Square and Triangle start files of their own.
        XCTAssertEqual(
            files.keys.filter { $0.hasPrefix("Types/") }.sorted(),
            [
                "Types/Shared/Shared+Shape+Square.swift", "Types/Shared/Shared+Shape+Triangle.swift",
                "Types/Shared/Shared+Shape.swift",
            ])
        let main = try XCTUnwrap(files["Types/Shared/Shared+Shape.swift"])
        XCTAssertTrue(main.contains("public enum Shape: Codable, Equatable, Sendable"))
        XCTAssertTrue(main.contains("case circle(Shape.Circle)"))
        // The enum closes before the extension that holds Circle.
        let enumEnd = try XCTUnwrap(main.range(of: "\n}\n\nextension Shape {\n"), main)
        XCTAssertLessThan(try XCTUnwrap(main.range(of: "case unknown(JSONValue)")).lowerBound, enumEnd.lowerBound)
        XCTAssertTrue(main[enumEnd.upperBound...].contains("    public struct Circle: Codable, Equatable, Sendable"))
        for nested in ["Square", "Triangle"] {
            let part = try XCTUnwrap(files["Types/Shared/Shared+Shape+\(nested).swift"])
            XCTAssertTrue(part.contains("\nextension Shape {\n"), part)
            XCTAssertTrue(part.contains("\n    public struct \(nested): Codable, Equatable, Sendable"), part)
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
            let result = try SwiftGenerator.generate(
                specBytes: Array(spec.utf8), specFile: "resources.yaml", sha256: String(repeating: "0", count: 64),
                configuration: GeneratorConfiguration(lineCap: lineCap))
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
            let result = try SwiftGenerator.generate(
                specBytes: Array(spec.utf8), specFile: path, sha256: SHA256.hex(Array(spec.utf8)),
                configuration: GeneratorConfiguration())
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
}
