/// Prints resource types and one method per operation.
struct OperationRenderer {
    let access: String

    /// How a reader calls the operation's main method: `client.chat.completions.create(_:)`.
    func callSpelling(_ operation: OperationDecl) -> String {
        let body = operation.bodies.first { if case .json = $0 { true } else { false } } ?? operation.bodies.first
        let labels = operation.signature(body: body).parameters.dropLast().map { $0.label + ":" }
        return "client." + (operation.resourcePath + [Naming.escaped(operation.methodName)]).joined(separator: ".")
            + "(" + labels.joined() + ")"
    }

    /// Prints `func name(` and the parameters of `signature`, one per line.
    private func declare(_ name: String, _ signature: MethodSignature, into printer: inout CodePrinter) {
        printer.line("\(access) func \(name)(")
        for (index, parameter) in signature.parameters.enumerated() {
            printer.line("    \(parameter.declaration)\(index == signature.parameters.count - 1 ? "" : ",")")
        }
    }

    /// `- Parameters:` lines for `parameters`: the first line of each one's description.
    static func parameterDocs(_ parameters: [OperationParameter]) -> [String] {
        parameters.map { parameter in
            "  - \(Naming.unescaped(parameter.name)): \(parameter.summary)"
        }
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
        // One method per operation, with the JSON body when offered (else the first media type);
        // an operation that also takes `multipart/form-data` gets the same method with a
        // `multipart:` label.
        let body = operation.bodies.first { if case .json = $0 { true } else { false } } ?? operation.bodies.first
        renderMethods(operation, body: body, bodyLabel: "_", into: &printer)
        if let form = operation.bodies.first(where: { if case .multipart = $0 { true } else { false } }), form != body {
            printer.line()
            renderMethods(operation, body: form, bodyLabel: "multipart", into: &printer)
        }
    }

    /// The statements that adapt the body of a streaming request, for the body kind in use
    /// (`body.stream = true`).
    static func assignments(_ streaming: StreamingInfo, body: RequestBodyKind?) -> [String] {
        var settings = streaming.bodySettings
        if case .multipart = body, !streaming.multipartBodySettings.isEmpty {
            settings = streaming.multipartBodySettings
        }
        return settings.map { setting in
            switch setting.value {
            case .bool(let flag): "body.\(setting.property) = \(flag)"
            case .string(let text): "body.\(setting.property) = \(text.swiftLiteral)"
            }
        }
    }

    func renderMethods(
        _ operation: OperationDecl, body: RequestBodyKind?, bodyLabel: String, into printer: inout CodePrinter
    ) {
        var docs: [String] =
            ["- Parameters:"] + Self.parameterDocs(operation.parameters.filter { $0.location == .path })
        if let body {
            let what: String =
                switch body {
                case .json: "The JSON request body."
                case .multipart: "The request body, sent as `multipart/form-data`."
                case .text(let contentType): "The request body, sent as `\(contentType)`."
                }
            docs.append("  - body: \(what)")
        }
        docs += Self.parameterDocs(operation.queryAndHeaderParameters)
        docs.append("  - options: Per-request headers, query items, timeout, retries and idempotency key.")
        switch operation.response {
        case .json(let type): docs.append("- Returns: The decoded `\(type.swift)` reply.")
        case .binary: docs.append("- Returns: The reply's body bytes.")
        case .text: docs.append("- Returns: The reply's body as text.")
        case .none: break
        }
        docs.append(
            "- Throws: ``OpenAIError`` for a non-2xx reply (after retries), a transport failure, cancellation, or a reply that does not decode."
        )
        if let streaming = operation.streaming {
            docs.append(
                "- Note: ``\(operation.methodName)Stream(\(streamLabels(operation, body: body, streaming: streaming, bodyLabel: bodyLabel)))`` streams the reply as server-sent events."
            )
        }
        printer.documentation(operation.methodSummary, remark: operation.documentation.remark, extra: docs)
        if let attribute = operation.documentation.availabilityAttribute { printer.line(attribute) }
        let result = returnType(operation).map { " -> \($0)" } ?? ""
        declare(
            Naming.escaped(operation.methodName), operation.signature(body: body, bodyLabel: bodyLabel), into: &printer)
        printer.block(") async throws\(result)") { method in
            buildRequest(operation, body: body, streaming: nil, into: &method)
            switch operation.response {
            case .json(let type):
                method.line("return try await client.send(request, options: options, as: \(type.swift).self)")
            case .binary:
                method.line("request.accept = \(operation.acceptTypes.joined(separator: ", ").swiftLiteral)")
                method.line("return try await client.sendForData(request, options: options)")
            case .text:
                method.line("request.accept = \(operation.acceptTypes.joined(separator: ", ").swiftLiteral)")
                method.line("return try await client.sendForText(request, options: options)")
            case .none:
                method.line("try await client.sendForNoContent(request, options: options)")
            }
        }
        if let streaming = operation.streaming,
            !Self.assignments(streaming, body: body).isEmpty || streaming.queryFlag != nil
        {
            printer.line()
            renderStream(operation, body: body, streaming: streaming, bodyLabel: bodyLabel, into: &printer)
        }
        if operation.response == .binary {
            printer.line()
            renderDownload(operation, body: body, bodyLabel: bodyLabel, into: &printer)
        }
        if let cursor = operation.pageCursor, body == nil, case .json(let page) = operation.response {
            printer.line()
            renderPages(operation, page: page, cursor: cursor, into: &printer)
        }
    }

    /// The auto-paging variant of a list method: `listPages(...)` returning `CursorPages`.
    func renderPages(
        _ operation: OperationDecl, page: TypeRef, cursor: OperationParameter, into printer: inout CodePrinter
    ) {
        let signature = operation.signature(body: nil)
        let listMethod = "``\(Naming.escaped(operation.methodName))(\(signature.selector))``"
        var docs: [String] =
            ["- Parameters:"]
            + Self.parameterDocs(operation.parameters.filter { $0.location == .path })
            + Self.parameterDocs(operation.queryAndHeaderParameters).map { line in
                line.hasPrefix("  - \(Naming.unescaped(cursor.name)):")
                    ? "  - \(Naming.unescaped(cursor.name)): The cursor of the first page; `nil` starts at the beginning."
                    : line
            }
        docs.append(
            "  - options: Per-request headers, query items, timeout, retries and idempotency key, for every page.")
        docs.append(
            "- Returns: The pages (``CursorPages``), each the `\(page.swift)` of one request; `.items` iterates their items, ``CursorPages/firstPage()`` gives a page with `nextPage()`. A request is sent when iteration asks for its page, and each iteration starts again from the first page."
        )
        docs.append(
            "- Note: Iterating throws what \(listMethod) throws (``OpenAIError``)."
        )
        printer.documentation(
            "Every page of \(listMethod), each fetched with the previous page's cursor as `\(cursor.wireName)`.",
            remark: operation.documentation.remark, extra: docs)
        if let attribute = operation.documentation.availabilityAttribute { printer.line(attribute) }
        declare(SynthesizedNames.pagesMethod(operation.methodName), signature, into: &printer)
        let arguments = signature.parameters.map { "\($0.label): \($0.name)" }
        let call = "try await self.\(Naming.escaped(operation.methodName))("
        printer.block(") -> CursorPages<\(page.swift)>") { method in
            method.line("client.pages(startingAfter: \(cursor.name)) { \(cursor.name) in")
            if call.count + arguments.joined(separator: ", ").count <= 96 {
                method.line("    \(call)\(arguments.joined(separator: ", ")))")
            } else {
                method.line("    \(call)")
                for (index, argument) in arguments.enumerated() {
                    method.line("        \(argument)\(index == arguments.count - 1 ? "" : ",")")
                }
                method.line("    )")
            }
            method.line("}")
        }
    }

    /// The variant of a binary operation that streams the reply's body to a file.
    func renderDownload(
        _ operation: OperationDecl, body: RequestBodyKind?, bodyLabel: String, into printer: inout CodePrinter
    ) {
        var docs: [String] =
            ["- Parameters:"] + Self.parameterDocs(operation.parameters.filter { $0.location == .path })
        if body != nil { docs.append("  - body: The request body.") }
        docs += Self.parameterDocs(operation.queryAndHeaderParameters)
        docs.append("  - destination: The file URL to write the body to; an existing file is replaced.")
        docs.append("  - options: Per-request headers, query items, timeout, retries and idempotency key.")
        docs.append("- Returns: The file, the number of bytes written and the reply head.")
        docs.append(
            "- Throws: ``OpenAIError`` for a non-2xx reply (after retries), a transport failure or cancellation (the partial file is removed); the file-system error when `destination` cannot be written."
        )
        printer.documentation(operation.downloadSummary, remark: operation.documentation.remark, extra: docs)
        if let attribute = operation.documentation.availabilityAttribute { printer.line(attribute) }
        var signature = operation.signature(body: body, bodyLabel: bodyLabel)
        signature.parameters.insert(
            MethodSignature.Parameter(label: "to", localName: "destination", type: "Foundation.URL"),
            at: signature.parameters.count - 1)
        declare(Naming.escaped(operation.methodName), signature, into: &printer)
        printer.block(") async throws -> DownloadResult") { method in
            buildRequest(operation, body: body, streaming: nil, into: &method)
            method.line("request.accept = \(operation.acceptTypes.joined(separator: ", ").swiftLiteral)")
            method.line("return try await client.sendForFile(request, to: destination, options: options)")
        }
    }

    /// The argument labels of the streaming variant, for a symbol link: `_:options:`.
    func streamLabels(_ operation: OperationDecl, body: RequestBodyKind?, streaming: StreamingInfo, bodyLabel: String)
        -> String
    {
        operation.signature(body: body, streaming: streaming, bodyLabel: bodyLabel).selector
    }

    /// The streaming variant: `createStream(...)` returning the typed events.
    func renderStream(
        _ operation: OperationDecl, body: RequestBodyKind?, streaming: StreamingInfo, bodyLabel: String,
        into printer: inout CodePrinter
    ) {
        var docs: [String] =
            ["- Parameters:"] + Self.parameterDocs(operation.parameters.filter { $0.location == .path })
        if body != nil {
            docs.append(
                "  - body: The request body; the method asks for a stream itself (\((Self.assignments(streaming, body: body).map { "`\($0)`" }).joined(separator: ", ")))."
            )
        }
        docs += Self.parameterDocs(operation.queryAndHeaderParameters.filter { $0.wireName != streaming.queryFlag })
        docs.append("  - options: Per-request headers, query items, timeout and retries.")
        docs.append(
            "- Returns: The events, `\(streaming.eventType.swift)`, in the order the server sends them (server-sent events, WHATWG HTML section 9.2). The request is sent when iteration starts; `data: [DONE]` ends the sequence; an event type this SDK does not know arrives as `.unknown`."
        )
        docs.append(
            "- Throws: ``OpenAIError`` when the request cannot be built (e.g. an empty path parameter). Errors while streaming, including error events, are thrown by the iteration."
        )
        printer.documentation(operation.streamSummary, remark: operation.documentation.remark, extra: docs)
        if let attribute = operation.documentation.availabilityAttribute { printer.line(attribute) }
        declare(
            SynthesizedNames.streamMethod(operation.methodName),
            operation.signature(body: body, streaming: streaming, bodyLabel: bodyLabel), into: &printer)
        printer.block(") throws -> OpenAIStream<\(streaming.eventType.swift)>") { method in
            buildRequest(operation, body: body, streaming: streaming, into: &method)
            let framing = streaming.framing == .eventNameAndData ? ".eventNameAndData" : ".data"
            method.line(
                "return client.stream(request, options: options, as: \(streaming.eventType.swift).self, framing: \(framing), ending: \(Self.ending(streaming.ending)))"
            )
        }
    }

    /// The `StreamEnding` expression of a stream's ending rule.
    static func ending(_ rule: StreamEndingRule) -> String {
        switch rule {
        case .unspecified:
            return ".unspecified"
        case .terminalEvents(let names):
            return ".terminalEvents([\(names.map(\.swiftLiteral).joined(separator: ", "))])"
        case .finishedChoices(let choices, let index, let finishReason):
            return
                ".finishedChoices { event, choices in for choice in event.\(choices) { choices.record(index: choice.\(index), finished: choice.\(finishReason) != nil) } }"
        }
    }

    /// The statements that build `request`: path, query, headers, body.
    func buildRequest(
        _ operation: OperationDecl, body: RequestBodyKind?, streaming: StreamingInfo?, into method: inout CodePrinter
    ) {
        let authentication = operation.adminAuthentication ? ", authentication: .adminAPIKey" : ""
        let mutates =
            !operation.parameters.isEmpty || !operation.fixedQuery.isEmpty || body != nil
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
            if parameter.wireName == streaming?.queryFlag {
                method.line("try request.addQuery(\(parameter.wireName.swiftLiteral), true)")
            } else {
                method.line("try request.addQuery(\(parameter.wireName.swiftLiteral), \(parameter.name))")
            }
        }
        for parameter in operation.parameters where parameter.location == .header {
            method.line("try request.addHeader(\(parameter.wireName.swiftLiteral), \(parameter.name))")
        }
        let streamAssignments = streaming.map { Self.assignments($0, body: body) } ?? []
        let defaults: [BodyDefault]
        if case .json? = body { defaults = operation.bodyDefaults } else { defaults = [] }
        if !streamAssignments.isEmpty || !defaults.isEmpty {
            method.line("var body = body")
            for assignment in streamAssignments { method.line(assignment) }
            for member in defaults {
                // Set by the SDK only when the caller did not choose; the reply's decoder is told.
                method.block("if body.\(member.property) == nil") { branch in
                    branch.line("body.\(member.property) = \(member.value.swiftLiteral)")
                    branch.line("request.defaultedBodyMembers.insert(\(member.wireName.swiftLiteral))")
                }
            }
        }
        if let body {
            let setter: String =
                switch body {
                case .json: "try request.setJSONBody(body)"
                case .multipart: "try request.setMultipartBody(body)"
                case .text(let contentType): "request.setTextBody(body, contentType: \(contentType.swiftLiteral))"
                }
            if operation.bodyRequired || streaming != nil {
                method.line(setter)
            } else {
                method.line("if let body { \(setter) }")
            }
        }
    }
}
