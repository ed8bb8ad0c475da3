import Foundation
import OpenAIGeneratorOpenAPI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIGeneratorCore

/// Every rendered `isMemberwiseEqual(to:)` compares exactly what a derived `==` would: each stored
/// property of its struct, once, in declaration order; each case of its union. The stored
/// properties are read from the rendered declaration itself, not from the list the renderer used.
final class MemberwiseEqualityRenderingTests: XCTestCase {
    /// What one rendered struct or union declares and compares (its own members, not its nested types').
    private struct Rendered {
        var name: String
        var stored: [String] = []
        var compared: [String] = []
        var cases: [String] = []
        var comparedCases: [String] = []
    }

    /// Reads `text`, a declaration rendered at the top level: its members at four spaces, the
    /// bodies of its methods at eight (a nested type's at more, which are not read here).
    private func read(_ text: String, name: String) -> Rendered {
        var result = Rendered(name: name)
        func at(_ depth: Int, _ line: String) -> String? {
            let indent = String(repeating: " ", count: depth)
            guard line.hasPrefix(indent), !line.hasPrefix(indent + " ") else { return nil }
            return String(line.dropFirst(depth))
        }
        /// The name in `text` up to `end`, after `start`.
        func identifier(in text: String, after start: String, before end: Character) -> String? {
            guard text.hasPrefix(start) else { return nil }
            let rest = text.dropFirst(start.count)
            return rest.firstIndex(of: end).map { String(rest[..<$0]) }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let member = at(4, line) {
                let declaration = ["public var ", "public let ", "private var "].lazy
                    .compactMap {
                        identifier(in: member, after: $0, before: ":") ?? identifier(in: member, after: $0, before: " ")
                    }
                    .first
                if let declaration, !member.contains("{") {
                    result.stored.append(declaration)
                } else if let unionCase = identifier(in: member, after: "case ", before: "(") {
                    result.cases.append(unionCase)
                }
            } else if let body = at(8, line) {
                for start in ["guard equal(self.", "return equal(self."] {
                    guard let compared = identifier(in: body, after: start, before: ",") else { continue }
                    XCTAssertTrue(body.contains("other.\(compared))"), line)
                    result.compared.append(compared)
                }
                if let compared = identifier(in: body, after: "case (.", before: "(") {
                    XCTAssertTrue(body.hasSuffix(".\(compared)(let rhs)): return equal(lhs, rhs)"), line)
                    result.comparedCases.append(compared)
                }
            }
        }
        return result
    }

    /// Checks every struct and union of `model`, nested ones included; returns how many of each.
    private func check(_ model: APIModel, _ source: String) -> (structs: Int, unions: Int) {
        let renderer = DeclarationRenderer(access: "public")
        var counts = (structs: 0, unions: 0)
        func visit(_ declaration: Declaration) {
            var printer = CodePrinter()
            renderer.render(declaration, into: &printer)
            let rendered = read(printer.text, name: declaration.name)
            switch declaration {
            case .structure(let decl):
                counts.structs += 1
                XCTAssertFalse(rendered.stored.isEmpty, "\(source): \(decl.name)")
                XCTAssertEqual(rendered.compared, rendered.stored, "\(source): \(decl.name)")
                decl.nested.forEach(visit)
            case .union(let decl):
                counts.unions += 1
                XCTAssertEqual(rendered.comparedCases, rendered.cases, "\(source): \(decl.name)")
                XCTAssertEqual(rendered.cases.last, "unknown", "\(source): \(decl.name)")
                decl.nested.forEach(visit)
            case .openEnum, .alias:
                break
            }
        }
        for top in model.declarations { visit(top.declaration) }
        return counts
    }

    func testTheLockedSpecsTypesCompareEveryStoredMember() throws {
        let (bytes, path) = try GeneratorRealSpecTests.lockedSpec()
        let (model, _) = try Translator().translate(try OpenAPILoader().load(bytes, file: path))
        let counts = check(model, "locked spec")
        XCTAssertGreaterThan(counts.structs, 1_500)
        XCTAssertGreaterThan(counts.unions, 200)
    }

    /// The fixtures hold the shapes the locked spec lacks: boxed properties (`recursive-schemas`),
    /// `additionalProperties`, names that need back-quotes (`landmines-keywords`).
    func testEveryFixturesTypesCompareEveryStoredMember() throws {
        var total = (structs: 0, unions: 0)
        var checked: Set<String> = []
        for name in try SnapshotFixtures.names() {
            let url = SnapshotFixtures.root.appendingPathComponent(name).appendingPathComponent("spec.yaml")
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let document = try? OpenAPILoader().load(bytes, file: url.path),
                let translated = try? Translator().translate(document)
            else { continue }  // the fixtures of broken specs
            let counts = check(translated.0, name)
            total.structs += counts.structs
            total.unions += counts.unions
            checked.insert(name)
        }
        for name in ["recursive-schemas", "additional-properties", "landmines-keywords", "landmines-runtime-names"] {
            XCTAssertTrue(checked.contains(name), name)
        }
        print(
            "MemberwiseEqualityRenderingTests: \(checked.count) fixtures, \(total.structs) structs, \(total.unions) unions"
        )
        XCTAssertGreaterThanOrEqual(total.structs, 178)
        XCTAssertGreaterThanOrEqual(total.unions, 14)
    }
}
