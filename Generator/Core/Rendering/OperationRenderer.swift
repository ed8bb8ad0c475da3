/// Prints resource types and one method per operation.
struct OperationRenderer {
    let access: String

    /// Label, type and default of each method parameter, in call order: path parameters, the
    /// body, query and header parameters, options.
    func signature(_ operation: OperationDecl, body: RequestBodyKind?) -> [String] {
        var parts: [String] = []
        for parameter in operation.parameters where parameter.location == .path {
            parts.append("\(parameter.name): \(parameter.type.swift)")
        }
        if let body {
            let type: String =
                switch body {
                case .json(let type), .multipart(let type): type.swift
                case .text: "Swift.String"
                }
            parts.append(operation.bodyRequired ? "_ body: \(type)" : "_ body: \(type)? = nil")
        }
        for parameter in operation.parameters where parameter.location != .path {
            parts.append(
                parameter.required
                    ? "\(parameter.name): \(parameter.type.swift)" : "\(parameter.name): \(parameter.type.swift)? = nil")
        }
        parts.append("options: RequestOptions = RequestOptions()")
        return parts
    }

    func returnType(_ operation: OperationDecl) -> String? {
        switch operation.response {
        case .json(let type): type.swift
        case .binary: "Foundation.Data"
        case .text: "Swift.String"
        case .none: nil
        }
    }

    func render(_ operation: OperationDecl, into printer: inout CodePrinter) {
        // One method per operation: a JSON body when offered (the multipart form otherwise).
        let body = operation.bodies.first { if case .json = $0 { true } else { false } } ?? operation.bodies.first
        var docs: [String] = ["- Parameters:"]
        for parameter in operation.parameters where parameter.location == .path {
            docs.append("  - \(Naming.unescaped(parameter.name)): \(CodePrinter.commentLines(parameter.documentation).first ?? "The `\(parameter.wireName)` path parameter.")")
        }
        if let body {
            let what: String =
                switch body {
                case .json: "The JSON request body."
                case .multipart: "The request body, sent as `multipart/form-data`."
                case .text(let contentType): "The request body, sent as `\(contentType)`."
                }
            docs.append("  - body: \(what)")
        }
        for parameter in operation.parameters where parameter.location != .path {
            docs.append("  - \(Naming.unescaped(parameter.name)): \(CodePrinter.commentLines(parameter.documentation).first ?? "The `\(parameter.wireName)` \(parameter.location.rawValue) parameter.")")
        }
        docs.append("  - options: Per-request headers, query items, timeout, retries and idempotency key.")
        switch operation.response {
        case .json(let type): docs.append("- Returns: The decoded `\(type.swift)` reply.")
        case .binary: docs.append("- Returns: The reply's body bytes.")
        case .text: docs.append("- Returns: The reply's body as text.")
        case .none: break
        }
        docs.append("- Throws: ``OpenAIError`` for a non-2xx reply (after retries), a transport failure, cancellation, or a reply that does not decode.")
        if operation.streams {
            docs.append("- Note: This operation can also stream server-sent events; this method returns the complete reply.")
        }
        printer.documentation(operation.documentation.summary, remark: operation.documentation.remark, extra: docs)
        if operation.documentation.deprecated { printer.line("@available(*, deprecated)") }
        let parameters = signature(operation, body: body)
        let result = returnType(operation).map { " -> \($0)" } ?? ""
        printer.line("\(access) func \(Naming.escaped(operation.methodName))(")
        for (index, parameter) in parameters.enumerated() {
            printer.line("    \(parameter)\(index == parameters.count - 1 ? "" : ",")")
        }
        printer.block(") async throws\(result)") { method in
            let authentication = operation.adminAuthentication ? ", authentication: .adminAPIKey" : ""
            let mutates = !operation.parameters.isEmpty || !operation.fixedQuery.isEmpty || body != nil
                || operation.response == .binary || operation.response == .text
            method.line(
                "\(mutates ? "var" : "let") request = APIRequest(method: \(operation.httpMethod.swiftLiteral), path: \(operation.path.swiftLiteral), operationID: \(operation.operationID.swiftLiteral)\(authentication))"
            )
            for parameter in operation.parameters where parameter.location == .path {
                method.line("try request.setPathParameter(\(parameter.wireName.swiftLiteral), \(parameter.name))")
            }
            for (name, value) in operation.fixedQuery {
                method.line("try request.addQuery(\(name.swiftLiteral), \(value.swiftLiteral))")
            }
            for parameter in operation.parameters where parameter.location == .query {
                method.line("try request.addQuery(\(parameter.wireName.swiftLiteral), \(parameter.name))")
            }
            for parameter in operation.parameters where parameter.location == .header {
                method.line("try request.addHeader(\(parameter.wireName.swiftLiteral), \(parameter.name))")
            }
            if let body {
                let setter: String =
                    switch body {
                    case .json: "try request.setJSONBody(body)"
                    case .multipart: "try request.setMultipartBody(body)"
                    case .text(let contentType): "request.setTextBody(body, contentType: \(contentType.swiftLiteral))"
                    }
                if operation.bodyRequired {
                    method.line(setter)
                } else {
                    method.line("if let body { \(setter) }")
                }
            }
            switch operation.response {
            case .json(let type):
                method.line("return try await client.send(request, options: options, as: \(type.swift).self)")
            case .binary:
                method.line("request.accept = \"*/*\"")
                method.line("return try await client.sendForData(request, options: options)")
            case .text:
                method.line("request.accept = \"*/*\"")
                method.line("return try await client.sendForText(request, options: options)")
            case .none:
                method.line("try await client.sendForNoContent(request, options: options)")
            }
        }
    }
}
