/// A reference to a Swift type.
public indirect enum TypeRef: Hashable, Sendable {
    /// A generated or hand-written type by its full Swift path, e.g. `Response.Output`.
    case named(String)
    case string
    case int
    case double
    case bool
    /// `Foundation.Data`: binary bodies.
    case data
    /// A file to upload in a multipart form.
    case file
    /// Free-form JSON.
    case json
    case array(TypeRef)
    case dictionary(TypeRef)

    /// The Swift spelling.
    public var swift: String {
        switch self {
        case .named(let name): return name
        case .string: return "Swift.String"
        case .int: return "Swift.Int"
        case .double: return "Swift.Double"
        case .bool: return "Swift.Bool"
        case .data: return "Foundation.Data"
        case .file: return "FileUpload"
        case .json: return "JSONValue"
        case .array(let element): return "[\(element.swift)]"
        // A free-form object keeps its members' order (a JSON Schema's `properties`, a tool's
        // `parameters`): the model reads them in that order, and prompt caching needs the same bytes.
        case .dictionary(.json): return "JSONObject"
        case .dictionary(let value): return "[Swift.String: \(value.swift)]"
        }
    }
}
