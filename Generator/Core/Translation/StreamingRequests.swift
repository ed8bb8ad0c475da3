import OpenAIGeneratorOpenAPI

/// Decides how each streaming method asks for a stream: `stream: true` in the body,
/// `stream_format: "sse"` (speech), or `stream=true` in the query (retrieving a response).
enum StreamingRequests {
    static func annotate(
        _ operations: [OperationDecl], declarations: [TopLevelDeclaration], endings: [String: StreamEnding],
        overridesFile: String, diagnostics: inout [Diagnostic]
    ) -> [OperationDecl] {
        let index = TopLevelDeclaration.indexByPath(declarations)
        let structs = index.compactMapValues { declaration -> StructDecl? in
            if case .structure(let decl) = declaration { return decl }
            return nil
        }
        let unions = index.compactMapValues { declaration -> UnionDecl? in
            if case .union(let decl) = declaration { return decl }
            return nil
        }
        return operations.map { operation in
            guard var streaming = operation.streaming else { return operation }
            var copy = operation
            var assignments: [StreamingInfo.BodySetting] = []
            for body in operation.bodies {
                switch body {
                case .json(.named(let name)):
                    if let decl = structs[name] { assignments = flagAssignments(decl) }
                case .multipart(.named(let name)):
                    if let decl = structs[name] { streaming.multipartBodySettings = flagAssignments(decl) }
                default: break
                }
            }
            if !operation.bodies.contains(where: { if case .json = $0 { true } else { false } }) {
                assignments = streaming.multipartBodySettings
            }
            streaming.bodySettings = assignments
            if let flag = operation.parameters.first(where: {
                $0.location == .query && $0.wireName == "stream" && $0.type == .bool
            }) {
                streaming.queryFlag = flag.wireName
            }
            streaming.ending = ending(
                of: operation, streaming.eventType, endings[operation.operationID], structs: structs, unions: unions,
                overridesFile: overridesFile, diagnostics: &diagnostics)
            // Without a way to ask for a stream, the operation only gets its plain method.
            copy.streaming = assignments.isEmpty && streaming.queryFlag == nil ? nil : streaming
            return copy
        }
    }

    /// The ending rule of one stream, checked against its event type: terminal events must be
    /// values of the event union's discriminator; finished choices need a `choices` array whose
    /// items have `index` and `finish_reason`.
    static func ending(
        of operation: OperationDecl, _ eventType: TypeRef, _ declared: StreamEnding?,
        structs: [String: StructDecl], unions: [String: UnionDecl], overridesFile: String,
        diagnostics: inout [Diagnostic]
    ) -> StreamEndingRule {
        func warn(_ message: String) {
            diagnostics.append(
                .overlay(
                    .streamEnding, file: overridesFile, section: "stream-endings", operationID: operation.operationID,
                    message))
        }
        guard let declared else {
            warn("no entry in stream-endings; a stream cut off between events cannot be told from a complete one")
            return .unspecified
        }
        guard case .named(let name) = eventType else { return .unspecified }
        if declared.finishedChoices {
            guard let event = structs[name],
                let choices = event.properties.first(where: { $0.wireName == "choices" }),
                case .array(.named(let choiceName)) = choices.type, let choice = structs[choiceName],
                let index = choice.properties.first(where: { $0.wireName == "index" && $0.type == .int }),
                let finish = choice.properties.first(where: { $0.wireName == "finish_reason" })
            else {
                warn("finished-choices needs `choices[].index` and `choices[].finish_reason` in \(name)")
                return .unspecified
            }
            return .finishedChoices(choices: choices.name, index: index.name, finishReason: finish.name)
        }
        if !declared.terminalEvents.isEmpty {
            if let union = unions[name] {
                let known = Set(union.cases.flatMap(\.discriminatorValues))
                for event in declared.terminalEvents where !known.contains(event) {
                    warn("terminal event `\(event)` is not a variant of \(name)")
                }
            }
            return .terminalEvents(declared.terminalEvents)
        }
        return .unspecified
    }

    /// The members of a request body that ask for a stream: `stream: true`, `stream_format: sse`.
    static func flagAssignments(_ decl: StructDecl) -> [StreamingInfo.BodySetting] {
        var result: [StreamingInfo.BodySetting] = []
        for property in decl.properties where property.constant == nil {
            if property.wireName == "stream" && property.type == .bool {
                result.append(.init(property: property.name, value: .bool(true)))
            } else if property.wireName == "stream_format", case .named = property.type {
                result.append(.init(property: property.name, value: .string("sse")))
            }
        }
        return result
    }
}
