import OpenAIGeneratorOpenAPI

/// The names of the client's resources and methods: resources follow the URL path, verbs come
/// from the HTTP method and the path shape, a name taken twice falls back to the operationId with
/// a `route-fallback` warning, and `Spec/overrides.json` `operations` names any operation (laid
/// on it by the overlay stage: ``OperationOverlay/methodPath``).
struct RouteNaming {
    let document: OpenAPIDocument

    struct Route {
        var resourcePath: [String]
        var methodName: String
    }

    /// The resource of an operation whose path has no segment of its own (`/`, `/{id}`): the
    /// client's `root` (`client.root.retrieve()`).
    static let rootResource = "root"

    /// The path without a query string, and the query's fixed items.
    static func splitPath(_ raw: String) -> (path: String, query: [(String, String)]) {
        guard let mark = raw.firstIndex(of: "?") else { return (raw, []) }
        let query = raw[raw.index(after: mark)...].split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        return (String(raw[..<mark]), query)
    }

    static func isParameter(_ segment: Substring) -> Bool { segment.hasPrefix("{") }

    /// Resource chain and verb for every operation, collisions resolved, with a `route-fallback`
    /// diagnostic for every operation whose method is named after its operationId because the
    /// rules gave a name already taken (an entry in `Spec/overrides.json` `operations` names it).
    func routes() -> (routes: [String: Route], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func fallback(_ operationID: String, wanted: String, at location: SourceLocation) {
            diagnostics.append(
                Diagnostic(
                    .routeFallback,
                    message:
                        "operation \(operationID) would be \(wanted), which another operation has; it is named after its operationId (name it in Spec/overrides.json `operations`)",
                    location: location))
        }
        let paths = Set(document.operations.map { Self.splitPath($0.path).path })
        let pathsWithOperations = paths
        var methodsByPath: [String: Set<String>] = [:]
        var listPaths: Set<String> = []
        for operation in document.operations {
            let (path, query) = Self.splitPath(operation.path)
            if query.isEmpty { methodsByPath[path, default: []].insert(operation.method) }
            if operation.method == "get" && returnsPage(operation) { listPaths.insert(path) }
        }
        var result: [String: Route] = [:]
        var taken: [String: String] = [:]  // "resource.path#method" → operationId
        for operation in document.operations {
            let operationID = Translator.operationKey(operation)
            if let parts = operation.overlay.methodPath, let method = parts.last {
                let resource = parts.dropLast()
                result[operationID] = Route(
                    resourcePath: resource.isEmpty ? [Self.rootResource] : Array(resource), methodName: method)
                taken[parts.joined(separator: ".")] = operationID
            }
        }
        for operation in document.operations {
            let operationID = Translator.operationKey(operation)
            if result[operationID] != nil { continue }
            let (path, query) = Self.splitPath(operation.path)
            let segments = path.split(separator: "/")
            var resource = segments.filter { !Self.isParameter($0) }.map {
                Naming.unescaped(Naming.memberName(String($0)))
            }
            var verb: String
            let last = segments.last
            let endsWithParameter = last.map(Self.isParameter) ?? false
            let isCollection = paths.contains { $0.hasPrefix(path + "/") }
            if endsWithParameter {
                switch operation.method {
                case "get": verb = "retrieve"
                case "delete": verb = "delete"
                case "put": verb = "replace"
                default: verb = "update"
                }
            } else {
                let previousIsParameter = segments.count >= 2 && Self.isParameter(segments[segments.count - 2])
                let parent = "/" + segments.dropLast().joined(separator: "/")
                let parentHasOperations = segments.count >= 2 && pathsWithOperations.contains(parent)
                let isList = operation.method == "get" && (returnsPage(operation) || isCollection)
                let action = Naming.unescaped(Naming.memberName(String(last ?? "")))
                // A singleton: a path that is no collection and no list, read with GET and written
                // with POST, wherever it is (`/organization/spend_limit` and
                // `/projects/{id}/spend_limit` alike) is `….spendLimit.retrieve(…)` and
                // `.update(…)`, not `create` in one place and `update` in the other, nor two
                // methods both named `spendLimit`.
                let methods = methodsByPath[path] ?? []
                let isSingleton =
                    !isCollection && !isList && !listPaths.contains(path) && methods.contains("get")
                    && methods.count >= 2
                switch operation.method {
                case _ where isSingleton:
                    switch operation.method {
                    case "get": verb = "retrieve"
                    case "delete": verb = "delete"
                    case "put": verb = "replace"
                    default: verb = "update"
                    }
                case "get" where isList: verb = "list"
                case "get" where !isCollection && (previousIsParameter || parentHasOperations):
                    verb = action
                    resource.removeLast()
                case "get": verb = "retrieve"
                case "post" where !isCollection && (previousIsParameter || parentHasOperations):
                    verb = action
                    resource.removeLast()
                case "post": verb = "create"
                case "delete": verb = "delete"
                case "put": verb = "replace"
                default: verb = "update"
                }
            }
            // A path with no segment of its own left (`/`, `/{id}`, `/{id}/cancel`): the API's root.
            if resource.isEmpty { resource = [Self.rootResource] }
            if let key = query.first?.0 { verb += Naming.upperCamel(key) }
            var route = Route(resourcePath: resource, methodName: verb)
            let key = (resource + [verb]).joined(separator: ".")
            if taken[key] != nil {
                route.methodName = Naming.unescaped(Naming.memberName(operationID))
                fallback(operationID, wanted: key, at: operation.location)
            }
            taken[(route.resourcePath + [route.methodName]).joined(separator: ".")] = operationID
            result[operationID] = route
        }
        // A method may not share its name with a child resource of the same resource.
        let resourcePaths = Set(
            result.values.flatMap { route in
                route.resourcePath.indices.map { route.resourcePath[...$0].joined(separator: ".") }
            })
        let locations = Dictionary(
            document.operations.map { (Translator.operationKey($0), $0.location) },
            uniquingKeysWith: { first, _ in first })
        for (operationID, route) in result.sorted(by: { $0.key < $1.key })
        where resourcePaths.contains((route.resourcePath + [route.methodName]).joined(separator: ".")) {
            result[operationID]!.methodName = Naming.unescaped(Naming.memberName(operationID))
            if let location = locations[operationID] {
                fallback(
                    operationID,
                    wanted: (route.resourcePath + [route.methodName]).joined(separator: ".")
                        + " (a resource's name)", at: location)
            }
        }
        return (result, diagnostics)
    }

    /// Whether the 2xx reply is a cursor page (`data` array plus `has_more` or `object: list`).
    func returnsPage(_ operation: Operation) -> Bool {
        guard
            let schema = successResponse(operation)?.content.first(where: { $0.contentType == "application/json" })?
                .schema
        else { return false }
        let resolved = schema.ref.flatMap { document.schema(named: $0) } ?? schema
        let names = Set(resolved.properties.map(\.name))
        return names.contains("data") && (names.contains("has_more") || names.contains("object"))
    }

    func successResponse(_ operation: Operation) -> Response? {
        operation.responses.first { $0.statusCode.hasPrefix("2") }
    }
}

/// Names of the resource types the client exposes (`client.chat.completions` → `ChatCompletionsAPI`).
enum ResourceNaming {
    static func typeName(_ path: [String]) -> String {
        path.map { Naming.upperCamel($0) }.joined() + "API"
    }
}
