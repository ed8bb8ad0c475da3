import OpenAIGeneratorOpenAPI

/// OpenAPI document → ``APIModel``.
public struct Translator {
    public init() {}

    /// Translates `document`, returning the model and the warnings.
    /// - Parameters:
    ///   - document: The loaded spec, with the overlay laid over it (``SpecOverlay``): the
    ///     project's corrections and what it adds to operations are read from the document.
    ///   - adminModule: Whether admin-key resources go in `OpenAIAdmin` (not with `--access
    ///     internal`, where another module could not see the `OpenAI` types).
    ///   - previousAreas: The area each component schema had in the previous generation
    ///     (``PreviousLayout``), kept while the spec still supports it.
    /// - Throws: ``OpenAPIError`` when schemas refer to each other through `$ref` alone (they
    ///   describe no value, and Swift cannot declare them), at the first schema of the cycle.
    public func translate(
        _ document: OpenAPIDocument, adminModule: Bool = true, previousAreas: [String: String] = [:]
    ) throws -> (model: APIModel, diagnostics: [Diagnostic]) {
        let (routes, routeDiagnostics) = RouteNaming(document: document).routes()
        let resourceTypeNames = Set(
            routes.values.flatMap { route in
                route.resourcePath.indices.map { ResourceNaming.typeName(Array(route.resourcePath[...$0])) }
            })
        var schemas = SchemaTranslator(document: document, reservedNames: resourceTypeNames)
        schemas.secretPointers = document.secretMembers
        schemas.leadingMembers = document.leadingMembers

        // Areas: the tag of the operations that reach a schema most directly; "Shared" when several tie.
        let references = SchemaReferences(document)
        // What each operation reaches, and through how many references: areas and modules both use it.
        let reach = document.operations.map { references.depths(from: references.roots(of: $0)) }
        let areas = Self.schemaAreas(
            document, reach: reach, routes: routes, references: references, previous: previousAreas)
        // The types a reader names, each in a file of its own: what operations send and return
        // (the components their bodies and replies name), their stream events, and the event unions.
        let operationTypes = document.operations.reduce(into: Set<String>()) { result, operation in
            result.formUnion(references.roots(of: operation, parameters: false))
        }
        let streamEvents = Set(document.operations.compactMap(\.overlay.stream?.eventSchema))
        // Modules: root resources whose every operation needs the admin key (and is plain JSON),
        // and the schemas only they reach, are compiled in `OpenAIAdmin`.
        let adminRoots = adminModule ? Self.adminRoots(document, routes: routes) : []
        let adminSchemas = Self.adminOnlySchemas(
            document, references: references, reach: reach, routes: routes, adminRoots: adminRoots,
            alsoCore: streamEvents)

        // Component schemas sent as multipart forms: their binary fields are file uploads.
        var multipartSchemas: Set<String> = []
        for operation in document.operations {
            for media in operation.requestBody?.content ?? [] where media.contentType == "multipart/form-data" {
                if let ref = media.schema?.ref { multipartSchemas.insert(ref) }
            }
        }
        // An inline copy of an admin-only component would make an `OpenAI` type refer to it.
        schemas.enableComponentReuse(excluding: adminSchemas.union(multipartSchemas))

        var declarations: [TopLevelDeclaration] = []
        for (name, schema) in document.schemas {
            for declaration in schemas.declareComponent(
                name, schema: schema, multipart: multipartSchemas.contains(name))
            {
                var isEventUnion = false
                if case .union = declaration { isEventUnion = declaration.name.hasSuffix("Event") }
                var role = TopLevelDeclaration.Role.supporting
                if declaration.name == schemas.componentTypeNames[name] {
                    if streamEvents.contains(name) || isEventUnion {
                        role = .event
                    } else if operationTypes.contains(name) {
                        role = .operationType
                    }
                }
                declarations.append(
                    TopLevelDeclaration(
                        declaration: declaration, placement: .area(areas[name] ?? Self.fallbackArea(name)),
                        schemaName: name, module: adminSchemas.contains(name) ? .admin : .openAI, role: role))
            }
        }

        var operations: [OperationDecl] = []
        var operationDiagnostics: [Diagnostic] = []
        for operation in document.operations {
            let operationID = Self.operationKey(operation)
            let route = routes[operationID]!
            let module: SDKModule = adminRoots.contains(route.resourcePath[0]) ? .admin : .openAI
            let resourceType = ResourceNaming.typeName(route.resourcePath)
            let scope = Scope(path: resourceType, ancestors: [resourceType])
            let stem = Naming.upperCamel(route.methodName)
            var parameters: [OperationParameter] = []
            for parameter in operation.parameters where parameter.location != .cookie {
                let resolved = schemas.resolve(
                    parameter.schema, suggestedName: SynthesizedNames.parameter(stem: stem, parameter: parameter.name),
                    scope: scope)
                let location: OperationParameter.Location =
                    switch parameter.location {
                    case .path: .path
                    case .header: .header
                    default: .query
                    }
                let described = schemas.memberDocumentation(
                    description: parameter.description, schema: parameter.schema)
                // One Swift name per parameter, none like the method's own `body` and `options`.
                var name = Naming.memberName(parameter.name)
                let taken = Set(parameters.map(\.name)).union(["body", "options"])
                if taken.contains(Naming.unescaped(name)) || taken.contains(name) {
                    // `default` is written `` `default` ``: the suffix goes on the bare name.
                    let base = Naming.unescaped(name) + Naming.upperCamel(parameter.location.rawValue)
                    var renamed = Naming.escaped(base)
                    var number = 2
                    while taken.contains(renamed) {
                        renamed = Naming.escaped(base + String(number))
                        number += 1
                    }
                    operationDiagnostics.append(
                        Diagnostic(
                            .parameterRenamed,
                            message:
                                "the \(parameter.location.rawValue) parameter \(parameter.name) of \(operationID) is "
                                + "named like another parameter of the method; it is \(renamed) in Swift",
                            location: parameter.source))
                    name = renamed
                }
                parameters.append(
                    OperationParameter(
                        name: name, wireName: parameter.name, location: location,
                        type: resolved.type, required: parameter.required, documentation: described.summary,
                        facts: described.facts))
            }
            var bodies: [RequestBodyKind] = []
            for media in operation.requestBody?.content ?? [] {
                guard let schema = media.schema else { continue }
                switch media.contentType {
                case "application/json":
                    let resolved = schemas.resolve(
                        schema, suggestedName: SynthesizedNames.requestBody(stem: stem), scope: scope)
                    bodies.append(.json(resolved.type))
                case "multipart/form-data":
                    let resolved = schemas.resolve(
                        schema, suggestedName: SynthesizedNames.multipartBody(stem: stem), scope: scope, multipart: true
                    )
                    bodies.append(.multipart(resolved.type))
                default:
                    bodies.append(.text(contentType: media.contentType))
                }
            }
            var response = ResponseKind.none
            var acceptTypes: [String] = []
            var streams = false
            var eventType: TypeRef?
            var framing = StreamingInfo.Framing.data
            if let success = operation.responses.first(where: { $0.statusCode.hasPrefix("2") }) {
                let types = success.content.map(\.contentType)
                acceptTypes = types.filter { $0 != "text/event-stream" }
                streams = types.contains("text/event-stream")
                if let schema = success.content.first(where: { $0.contentType == "text/event-stream" })?.schema {
                    eventType =
                        schemas.resolve(schema, suggestedName: SynthesizedNames.streamEvent(stem: stem), scope: scope)
                        .type
                }
                let json = success.content.first { $0.contentType == "application/json" }
                let jsonIsStructured = json?.schema.map { schemas.kind($0) != "string" } ?? false
                let binary = types.contains {
                    $0.hasPrefix("audio/") || $0.hasPrefix("image/") || $0.hasPrefix("video/")
                        || $0 == "application/octet-stream" || $0 == "application/zip"
                }
                if let json, let schema = json.schema, jsonIsStructured || !binary {
                    let resolved = schemas.resolve(
                        schema, suggestedName: SynthesizedNames.response(stem: stem), scope: scope)
                    response = .json(resolved.type)
                } else if binary {
                    response = .binary
                } else if types.contains(where: {
                    $0.hasPrefix("text/") && $0 != "text/event-stream" || $0 == "application/sdp"
                }) {
                    response = .text
                }
            }
            if let accept = operation.overlay.binaryReplyTypes {
                // File bytes that the spec types as a JSON string or leaves undocumented.
                response = .binary
                acceptTypes = accept
            }
            if let declared = operation.overlay.stream, let name = schemas.componentTypeNames[declared.eventSchema] {
                // A stream the spec does not declare (the request's `stream` flag), from Spec/overrides.json.
                eventType = .named(name)
                framing = declared.eventNameInEventLine ? .eventNameAndData : .data
                streams = true
            }
            let (path, fixedQuery) = RouteNaming.splitPath(operation.path)
            var summary = operation.summary ?? ""
            if let description = operation.description, description != summary {
                summary = summary.isEmpty ? description : summary + "\n\n" + description
            }
            summary = DocText.asidesLast(summary)
            let area =
                operation.tags.first.map(Naming.typeName) ?? Naming.typeName(route.resourcePath.first ?? "Shared")
            operations.append(
                OperationDecl(
                    operationID: operationID, resourcePath: route.resourcePath, methodName: route.methodName,
                    httpMethod: operation.method.uppercased(), path: path, fixedQuery: fixedQuery,
                    parameters: parameters, bodies: bodies,
                    bodyRequired: Self.bodyIsRequired(operation.requestBody, schemas: schemas),
                    response: response, acceptTypes: acceptTypes, streams: streams,
                    adminAuthentication: Self.needsAdminKey(operation, document: document),
                    documentation: Documentation(
                        summary: summary.isEmpty ? nil : summary,
                        remark: "`\(operation.method.uppercased()) \(operation.path)` (operationId `\(operationID)`)",
                        deprecated: operation.deprecated),
                    area: area, module: module))
            if let eventType {
                operations[operations.count - 1].streaming = StreamingInfo(
                    eventType: eventType, framing: framing, bodySettings: [], queryFlag: nil)
            }
            // Types for an operation's inline schemas live in its resource type (the renderer puts
            // them in an extension of it).
            for declaration in scope.nested {
                declarations.append(.inResource(declaration, resourceType, module: module))
            }
        }

        // Every webhook payload, as one union dispatched on its `type` (what a webhook handler
        // receives).
        var webhooks: [(name: String, type: TypeRef)] = []
        let payloads = document.webhooks.compactMap(\.payload)
        if !payloads.isEmpty {
            let name = schemas.reserveTopLevelName("WebhookEvent")
            let location = document.webhooks[0].location
            let union = Schema.union(
                of: payloads,
                description:
                    "An event the API delivers to a webhook endpoint (every payload of the spec's `webhooks`).",
                location: SourceLocation(file: location.file, mark: location.mark, pointer: "#/webhooks"))
            if let declaration = schemas.makeDeclaration(
                union, name: name, suggestedName: name, scope: Scope(path: "", ancestors: []))
            {
                declarations.append(
                    TopLevelDeclaration(
                        declaration: declaration, placement: .area("Webhooks"), schemaName: nil, module: .openAI,
                        role: .event))
            }
            for webhook in document.webhooks {
                guard let payload = webhook.payload else { continue }
                let resolved = schemas.resolve(
                    payload, suggestedName: SynthesizedNames.webhookPayload(webhook: webhook.name),
                    scope: Scope(path: "", ancestors: []))
                webhooks.append((webhook.name, resolved.type))
            }
        }

        try AliasCycles.rejectPureCycles(declarations, document: document)
        var modelDiagnostics: [Diagnostic] = []
        declarations = AliasCycles.breakCollectionCycles(
            declarations, document: document, diagnostics: &modelDiagnostics)
        declarations = PaginationDetector.annotate(RecursionBreaker.breakCycles(declarations))
        let overlays = Dictionary(
            document.operations.map { (Self.operationKey($0), $0.overlay) }, uniquingKeysWith: { first, _ in first })
        operations = StreamingRequests.annotate(
            operations, declarations: declarations, endings: overlays.compactMapValues(\.streamEnding),
            overridesFile: document.overlayFile, diagnostics: &modelDiagnostics)
        operations = PaginationDetector.annotate(operations, declarations: declarations)
        operations = BodyDefaults.annotate(
            operations, declarations: declarations,
            defaults: overlays.mapValues(\.bodyDefaults).filter { !$0.value.isEmpty },
            overridesFile: document.overlayFile, diagnostics: &modelDiagnostics)
        // After the passes that read structs through the names operations use; before the references
        // are qualified, so that both sides of a pair are compared as written.
        declarations = IdenticalComponents.merge(declarations)
        // Last: the passes above look declarations up by their unqualified paths.
        declarations = ShadowedReferences.qualify(declarations)
        return (
            APIModel(
                declarations: declarations, operations: operations, resources: ResourceDecl.tree(of: operations),
                webhooks: webhooks, reusedComponents: schemas.reusedComponents,
                areaTitles: Self.areaTitles(document)),
            document.diagnostics + routeDiagnostics + schemas.diagnostics + operationDiagnostics + modelDiagnostics
        )
    }

    /// Area name → the operation tag it is made from (`VectorStores` → `Vector stores`); the first
    /// tag met wins when two tags make one name.
    static func areaTitles(_ document: OpenAPIDocument) -> [String: String] {
        var titles: [String: String] = [:]
        for operation in document.operations {
            guard let tag = operation.tags.first else { continue }
            let area = Naming.typeName(tag)
            if titles[area] == nil { titles[area] = tag }
        }
        return titles
    }

    /// Whether the operation takes only the admin API key (`AdminApiKeyAuth` without `ApiKeyAuth`).
    static func needsAdminKey(_ operation: Operation, document: OpenAPIDocument) -> Bool {
        let security = operation.security.isEmpty ? document.defaultSecurity : operation.security
        return security.contains("AdminApiKeyAuth") && !security.contains("ApiKeyAuth")
    }

    /// The root resources (`organization`, `projects`) whose every operation needs the admin key
    /// and is plain JSON: a stream, a multipart form or a body default needs runtime API that only
    /// the `OpenAI` module sees.
    static func adminRoots(
        _ document: OpenAPIDocument, routes: [String: RouteNaming.Route]
    ) -> Set<String> {
        var adminOnly: [String: Bool] = [:]
        for operation in document.operations {
            let key = Self.operationKey(operation)
            guard let root = routes[key]?.resourcePath.first else { continue }
            let media =
                (operation.requestBody?.content ?? []).map(\.contentType)
                + operation.responses.flatMap { $0.content.map(\.contentType) }
            let plain =
                !media.contains("multipart/form-data") && !media.contains("text/event-stream")
                && operation.overlay.stream == nil && operation.overlay.bodyDefaults.isEmpty
            adminOnly[root] = (adminOnly[root] ?? true) && needsAdminKey(operation, document: document) && plain
        }
        return Set(adminOnly.filter(\.value).keys)
    }

    /// The component schemas that only operations of admin root resources reach: every schema
    /// outside the closure of what the other operations reach and of the schemas no operation
    /// reaches (webhook payloads, stream events) or that `alsoCore` names (the event schemas of
    /// streams `Spec/overrides.json` declares). No `OpenAI` type refers to one: component reuse
    /// leaves these out (``SchemaTranslator/enableComponentReuse(excluding:)``).
    static func adminOnlySchemas(
        _ document: OpenAPIDocument, references: SchemaReferences, reach: [[String: Int]],
        routes: [String: RouteNaming.Route], adminRoots: Set<String>, alsoCore: Set<String> = []
    ) -> Set<String> {
        guard !adminRoots.isEmpty else { return [] }
        var reachedByAny: Set<String> = []
        var coreRoots: Set<String> = []
        for (operation, reached) in zip(document.operations, reach) {
            reachedByAny.formUnion(reached.keys)
            let root = routes[Self.operationKey(operation)]?.resourcePath.first ?? ""
            if !adminRoots.contains(root) { coreRoots.formUnion(reached.filter { $0.value == 0 }.keys) }
        }
        let all = Set(document.schemas.map(\.name))
        let core = references.closure(of: coreRoots.union(all.subtracting(reachedByAny)).union(alsoCore))
        return all.subtracting(core)
    }

    /// Whether a caller must pass the request body: when `requestBody.required` says so, and also
    /// when the schema of every media type it lists requires members (`required` of the object,
    /// its `allOf` parts and `$ref`s, after `Spec/overrides.json`): no body can satisfy such a
    /// schema, whatever the flag says. The official SDKs take these bodies as required too. A body
    /// whose schema allows `{}` (or is not an object) stays optional unless the spec requires it.
    static func bodyIsRequired(_ body: RequestBody?, schemas: SchemaTranslator) -> Bool {
        guard let body else { return false }
        if body.required { return true }
        let mediaSchemas = body.content.compactMap(\.schema)
        return !mediaSchemas.isEmpty
            && mediaSchemas.allSatisfy {
                schemas.isObjectLike($0) && !schemas.flattenedObject($0).required.isEmpty
            }
    }

    /// The key of an operation in the route table: its operationId, else method and path.
    static func operationKey(_ operation: Operation) -> String {
        operation.operationID ?? "\(operation.method)\(operation.path)"
    }
}

/// Which component schemas each schema refers to through `$ref` (properties, variants, items,
/// `additionalProperties`), and what an operation's parameters and bodies reach.
struct SchemaReferences {
    private var references: [String: Set<String>] = [:]

    init(_ document: OpenAPIDocument) {
        for (name, schema) in document.schemas {
            var set: Set<String> = []
            Self.collect(schema, into: &set)
            references[name] = set
        }
    }

    /// The components `name` refers to.
    func references(of name: String) -> Set<String> { references[name] ?? [] }

    /// Component → the components that refer to it.
    var referrers: [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for (name, targets) in references {
            for target in targets { result[target, default: []].insert(name) }
        }
        return result
    }

    static func collect(_ schema: Schema, into set: inout Set<String>) {
        if let ref = schema.ref { set.insert(ref) }
        for entry in schema.discriminator?.mapping ?? [] { set.insert(entry.componentName) }
        for (_, property) in schema.properties { collect(property, into: &set) }
        for branch in schema.oneOf + schema.anyOf + schema.allOf { collect(branch, into: &set) }
        if let items = schema.items { collect(items, into: &set) }
        if case .schema(let value) = schema.additionalProperties { collect(value, into: &set) }
    }

    /// The components an operation's parameters (unless `parameters` is false), request bodies and
    /// responses name directly.
    func roots(of operation: Operation, parameters: Bool = true) -> Set<String> {
        var roots: Set<String> = []
        if parameters {
            for parameter in operation.parameters { Self.collect(parameter.schema, into: &roots) }
        }
        for media in operation.requestBody?.content ?? [] {
            if let schema = media.schema { Self.collect(schema, into: &roots) }
        }
        for response in operation.responses {
            for media in response.content { if let schema = media.schema { Self.collect(schema, into: &roots) } }
        }
        return roots
    }

    /// `roots` (at depth 0) and every component reachable from them, with the fewest references
    /// that lead there.
    func depths(from roots: Set<String>) -> [String: Int] {
        var result = Dictionary(uniqueKeysWithValues: roots.map { ($0, 0) })
        var level = Array(roots)
        var depth = 0
        while !level.isEmpty {
            depth += 1
            var next: [String] = []
            for name in level {
                for child in references[name] ?? [] where result[child] == nil {
                    result[child] = depth
                    next.append(child)
                }
            }
            level = next
        }
        return result
    }

    /// `roots` and every component reachable from them.
    func closure(of roots: Set<String>) -> Set<String> {
        var stack = Array(roots)
        var seen = roots
        while let next = stack.popLast() {
            for child in references[next] ?? [] where seen.insert(child).inserted { stack.append(child) }
        }
        return seen
    }
}
