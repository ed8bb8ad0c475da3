import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// A change found by the comparison, before it is judged and named: which rule, where, and for
/// which directions of use.
struct DiffFinding {
    enum Side { case old, new }

    var kind: ChangeKind
    var pointer: String
    /// Which spec ``pointer`` is in.
    var side: Side
    var message: String
    /// The wire directions it is judged for (empty: Swift only).
    var directions: UsageDirections
    /// Whether the Swift verdict applies (false when the generated Swift is unchanged, e.g. an
    /// optional property becoming nullable is `T?` either way).
    var swift: Bool = true
    /// Overrides the Swift declaration found from the pointer.
    var swiftDeclaration: String? = nil
    /// Replaces the rule's default Swift verdict when this instance differs from the rule (a
    /// single schema becoming a union gains a variant on the wire, but its Swift type changes).
    /// A `--severity` override for the kind still wins.
    var swiftSeverity: ChangeSeverity? = nil
    /// Line and column of ``pointer`` in its spec, when known.
    var mark: Mark? = nil
    /// Kinds of findings folded into this one (a nullability change at the same place as a
    /// type change); each audience's verdict is the worst over ``kind`` and these.
    var foldedKinds: [ChangeKind] = []

    /// Findings that say the same thing at the same place (a schema reached from requests and
    /// from replies is compared once per direction) merged into one, in first-seen order.
    static func merged(_ findings: [DiffFinding]) -> [DiffFinding] {
        struct Key: Hashable {
            var kind: ChangeKind
            var pointer: String
            var old: Bool
            var message: String
        }
        var order: [Key] = []
        var byKey: [Key: DiffFinding] = [:]
        for finding in findings {
            let key = Key(
                kind: finding.kind, pointer: finding.pointer, old: finding.side == .old,
                message: finding.message)
            if var known = byKey[key] {
                known.directions.formUnion(finding.directions)
                known.swift = known.swift || finding.swift
                known.swiftSeverity = [known.swiftSeverity, finding.swiftSeverity].compactMap { $0 }.max()
                known.mark = known.mark ?? finding.mark
                known.foldedKinds += finding.foldedKinds.filter { !known.foldedKinds.contains($0) }
                byKey[key] = known
            } else {
                order.append(key)
                byKey[key] = finding
            }
        }
        var result = order.map { byKey[$0]! }
        // A value that changes type and nullability at once (`{object}` to `anyOf: [$ref, null]`)
        // is one change: the type change's entry says it.
        let typeKinds: Set<ChangeKind> = [.typeChanged, .typeWidened, .typeNarrowed]
        var typeChanges: [String: Int] = [:]
        for (index, finding) in result.enumerated()
        where typeKinds.contains(finding.kind) && finding.side == .new {
            typeChanges[finding.pointer] = index
        }
        var folded: Set<Int> = []
        for (index, finding) in result.enumerated()
        where finding.kind == .becameNullable || finding.kind == .becameNonNullable {
            guard let target = typeChanges[finding.pointer] else { continue }
            result[target].message +=
                finding.kind == .becameNullable ? ", and may now be null" : ", and may no longer be null"
            result[target].directions.formUnion(finding.directions)
            result[target].swift = result[target].swift || finding.swift
            result[target].foldedKinds.append(finding.kind)
            folded.insert(index)
        }
        return result.enumerated().filter { !folded.contains($0.offset) }.map(\.element)
    }
}
