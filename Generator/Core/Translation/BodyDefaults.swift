import OpenAIGeneratorOpenAPI

/// Resolves `Spec/overrides.json` `body-defaults` against each operation's JSON body type: the
/// Swift property of every member, which must be optional (the SDK sets it only when the caller
/// did not).
enum BodyDefaults {
    static func annotate(
        _ operations: [OperationDecl], declarations: [TopLevelDeclaration], defaults: [String: [String: String]],
        overridesFile: String, diagnostics: inout [Diagnostic]
    ) -> [OperationDecl] {
        guard !defaults.isEmpty else { return operations }
        let structs = TopLevelDeclaration.structsByPath(declarations)
        return operations.map { operation in
            guard let members = defaults[operation.operationID] else { return operation }
            func warn(_ message: String) {
                diagnostics.append(
                    .overlay(
                        .bodyDefault, file: overridesFile, section: "body-defaults", operationID: operation.operationID,
                        message))
            }
            let body = operation.bodies.lazy.compactMap { kind -> StructDecl? in
                if case .json(.named(let name)) = kind { return structs[name] }
                return nil
            }.first
            guard let body else {
                warn("the operation has no JSON object body")
                return operation
            }
            var copy = operation
            for (wireName, value) in members.sorted(by: { $0.key < $1.key }) {
                guard let property = body.properties.first(where: { $0.wireName == wireName && $0.constant == nil })
                else {
                    warn("\(body.name) has no member `\(wireName)`")
                    continue
                }
                guard property.isOptional else {
                    warn("\(body.name).\(property.name) is required; the caller always sets it")
                    continue
                }
                copy.bodyDefaults.append(BodyDefault(property: property.name, wireName: wireName, value: value))
            }
            return copy
        }
    }
}
