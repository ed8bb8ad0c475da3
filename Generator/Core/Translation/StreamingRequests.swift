/// Decides how each streaming method asks for a stream: `stream: true` in the body,
/// `stream_format: "sse"` (speech), or `stream=true` in the query (retrieving a response).
enum StreamingRequests {
    static func annotate(_ operations: [OperationDecl], declarations: [TopLevelDeclaration]) -> [OperationDecl] {
        var structs: [String: StructDecl] = [:]
        for (path, declaration) in TopLevelDeclaration.indexByPath(declarations) {
            if case .structure(let decl) = declaration { structs[path] = decl }
        }
        return operations.map { operation in
            guard var streaming = operation.streaming else { return operation }
            var copy = operation
            var assignments: [String] = []
            for body in operation.bodies {
                switch body {
                case .json(.named(let name)):
                    if let decl = structs[name] { assignments = flagAssignments(decl) }
                case .multipart(.named(let name)):
                    if let decl = structs[name] { streaming.multipartBodyAssignments = flagAssignments(decl) }
                default: break
                }
            }
            if !operation.bodies.contains(where: { if case .json = $0 { true } else { false } }) {
                assignments = streaming.multipartBodyAssignments
            }
            streaming.bodyAssignments = assignments
            if let flag = operation.parameters.first(where: {
                $0.location == .query && $0.wireName == "stream" && $0.type == .bool
            }) {
                streaming.queryFlag = flag.wireName
            }
            // Without a way to ask for a stream, the operation only gets its plain method.
            copy.streaming = assignments.isEmpty && streaming.queryFlag == nil ? nil : streaming
            return copy
        }
    }

    static func flagAssignments(_ decl: StructDecl) -> [String] {
        var result: [String] = []
        for property in decl.properties where property.constant == nil {
            if property.wireName == "stream" && property.type == .bool {
                result.append("body.\(property.name) = true")
            } else if property.wireName == "stream_format", case .named = property.type {
                result.append("body.\(property.name) = \"sse\"")
            }
        }
        return result
    }
}
