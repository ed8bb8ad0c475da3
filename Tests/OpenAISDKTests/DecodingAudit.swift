import Foundation

@testable import OpenAI
@testable import OpenAIRuntime

/// What one decoded value holds beyond its typed members: the deviations from the spec the
/// lenient mode recorded, and the union values that fell back to `unknown(_:)`.
struct DecodingAudit {
    var report: SpecDeviationReport
    /// Paths (Swift property names) of `unknown(_:)` union values.
    var unknownPaths: [String] = []

    init(_ value: Any) {
        report = SpecDeviationReport(value)
        findUnknowns(value, path: "", depth: 0)
    }

    private mutating func findUnknowns(_ value: Any, path: String, depth: Int) {
        guard depth < 256, !(value is JSONValue), !(value is String) else { return }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .set?:
            for (index, child) in mirror.children.enumerated() {
                findUnknowns(child.value, path: "\(path)[\(index)]", depth: depth + 1)
            }
        case .dictionary?:
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                if pair.count == 2 { findUnknowns(pair[1].value, path: "\(path)[\(pair[0].value)]", depth: depth + 1) }
            }
        case .enum?:
            for child in mirror.children {
                if child.label == "unknown" {
                    unknownPaths.append(path.isEmpty ? "(top level)" : path)
                } else {
                    findUnknowns(child.value, path: path, depth: depth + 1)
                }
            }
        case .optional?, .class?:
            for child in mirror.children { findUnknowns(child.value, path: path, depth: depth + 1) }
        default:
            for child in mirror.children {
                guard var label = child.label, label != "specDeviations" else { continue }
                if label.hasPrefix("_") { label.removeFirst() }
                findUnknowns(child.value, path: path.isEmpty ? label : "\(path).\(label)", depth: depth + 1)
            }
        }
    }
}
