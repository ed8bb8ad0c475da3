import Foundation
import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// Compares two OpenAPI documents: operations, parameters, bodies, responses, component
/// schemas (with rename detection by equal shape) and webhooks, and judges each change for the
/// wire (by where the schema is used: request, response or both) and for the generated Swift API
/// (using the ``Translator`` output of both specs).
public struct SpecDiffer: Sendable {
    /// Severity overrides and naming overrides.
    public var configuration: DiffConfiguration

    /// Creates a differ.
    /// - Parameters:
    ///   - configuration: Severity and naming overrides.
    public init(configuration: DiffConfiguration = DiffConfiguration()) {
        self.configuration = configuration
    }

    /// Loads, translates and compares two specs, loading both at once.
    /// - Parameters:
    ///   - oldBytes: The old spec (YAML or JSON bytes).
    ///   - oldFile: The old spec's path, as shown in locations and the report.
    ///   - newBytes: The new spec.
    ///   - newFile: The new spec's path.
    /// - Returns: The report.
    /// - Throws: ``OpenAPIError`` when either spec cannot be read (invalid YAML, not OpenAPI 3.x,
    ///   dangling `$ref`).
    public func diff(oldBytes: [UInt8], oldFile: String, newBytes: [UInt8], newFile: String) throws
        -> SpecDiffReport
    {
        let pipeline = GeneratorPipeline(configuration: GeneratorConfiguration(overrides: configuration.overrides))
        let box = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = Result {
                let document = try pipeline.load(
                    index == 0 ? oldBytes : newBytes, file: index == 0 ? oldFile : newFile)
                return TranslatedSpec(document: document, model: try pipeline.translate(document).model)
            }
            box.set(index, result)
        }
        let old = try box.get(0).get()
        let new = try box.get(1).get()
        return compare(old: old, new: new)
    }

    /// Compares two loaded documents (translating both for the Swift names).
    /// - Parameters:
    ///   - old: The old document, with the overlay laid over it (``GeneratorPipeline/load(_:file:)``
    ///     does both; a document from `OpenAPILoader` alone is compared without the overrides).
    ///   - new: The new document, the same way.
    /// - Returns: The report.
    /// - Throws: ``OpenAPIError`` when either has schemas that refer to each other through `$ref`
    ///   alone (``GeneratorPipeline/translate(_:)``).
    public func diff(old: OpenAPIDocument, new: OpenAPIDocument) throws -> SpecDiffReport {
        let pipeline = GeneratorPipeline(configuration: GeneratorConfiguration(overrides: configuration.overrides))
        return compare(
            old: TranslatedSpec(document: old, model: try pipeline.translate(old).model),
            new: TranslatedSpec(document: new, model: try pipeline.translate(new).model))
    }

    func compare(old: TranslatedSpec, new: TranslatedSpec) -> SpecDiffReport {
        var run = DiffRun(old: old, new: new)
        run.run()
        let marks = PointerMarks(new.document)
        let changes = run.findings.map {
            judge($0, old: run.oldIndex, new: run.newIndex, marks: marks)
        }
        return SpecDiffReport(oldFile: old.document.file, newFile: new.document.file, changes: changes)
    }

    private func judge(
        _ finding: DiffFinding, old: SwiftNameIndex, new: SwiftNameIndex, marks: PointerMarks
    ) -> SpecChange {
        var judgements: [ChangeJudgement] = []
        let kinds = [finding.kind] + finding.foldedKinds
        func verdict(_ audience: ChangeAudience, instead: ChangeSeverity? = nil) -> ChangeSeverity? {
            kinds.enumerated().compactMap {
                configuration.severity(kind: $0.element, audience: audience, instead: $0.offset == 0 ? instead : nil)
            }.max()
        }
        for audience in finding.directions.audiences {
            if let severity = verdict(audience) {
                judgements.append(ChangeJudgement(audience: audience, severity: severity))
            }
        }
        if finding.swift, let severity = verdict(.swift, instead: finding.swiftSeverity) {
            judgements.append(ChangeJudgement(audience: .swift, severity: severity))
        }
        let index = finding.side == .old ? old : new
        let mark =
            finding.side == .new
            ? finding.mark ?? marks.nearest(to: finding.pointer) : marks.nearest(enclosing: finding.pointer)
        return SpecChange(
            kind: finding.kind, pointer: finding.pointer, area: index.area(at: finding.pointer),
            swiftDeclaration: finding.swiftDeclaration ?? index.declaration(at: finding.pointer),
            message: finding.message, judgements: judgements, line: mark?.line, column: mark?.column)
    }
}

/// Lines of the new spec's operations, parameters, webhooks, component schemas and their
/// properties by JSON pointer, for changes that carry no position of their own (and removals,
/// which point into the old spec).
struct PointerMarks {
    private var marks: [String: Mark] = [:]

    init(_ document: OpenAPIDocument) {
        for (_, schema) in document.schemas {
            marks[schema.location.pointer] = schema.location.mark
            for (_, property) in schema.properties {
                marks[property.location.pointer] = property.location.mark
            }
        }
        for operation in document.operations {
            marks[operation.location.pointer] = operation.location.mark
            for parameter in operation.parameters {
                marks[parameter.source.pointer] = parameter.source.mark
            }
        }
        for webhook in document.webhooks { marks[webhook.location.pointer] = webhook.location.mark }
    }

    /// The mark of `pointer` or of its nearest ancestor that has one.
    func nearest(to pointer: String) -> Mark? {
        lookup(Substring(pointer))
    }

    /// For a pointer into the old spec: its mark in the new spec, or its nearest ancestor's.
    /// A pointer ending in an array index (`…/parameters/1`, `…/oneOf/2`) starts at its parent:
    /// the same index in the new spec may be another thing (the next parameter).
    func nearest(enclosing pointer: String) -> Mark? {
        guard let slash = pointer.lastIndex(of: "/"),
            pointer[pointer.index(after: slash)...].allSatisfy(\.isNumber)
        else { return lookup(Substring(pointer)) }
        return lookup(pointer[..<slash])
    }

    private func lookup(_ pointer: Substring) -> Mark? {
        var current = pointer
        while !current.isEmpty {
            if let mark = marks[String(current)] { return mark }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return nil
    }
}

/// A document and its translation.
struct TranslatedSpec: Sendable {
    var document: OpenAPIDocument
    var model: APIModel
}

/// Results of the two concurrent loads.
private final class ResultBox: @unchecked Sendable {
    // Guarded by `lock`.
    private var results: [Int: Result<TranslatedSpec, any Error>] = [:]
    private let lock = NSLock()

    func set(_ index: Int, _ result: Result<TranslatedSpec, any Error>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }

    func get(_ index: Int) -> Result<TranslatedSpec, any Error> {
        lock.lock()
        defer { lock.unlock() }
        return results[index]!
    }
}
