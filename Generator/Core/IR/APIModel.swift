/// The Swift-shaped model the renderer prints. Every shape decision is made before this point
/// (in Translation); the renderer only prints.

/// The whole translated API.
public struct APIModel: Sendable {
    public var declarations: [TopLevelDeclaration]
    public var operations: [OperationDecl]
    /// The client's resource tree, every resource once, parents before their children, in path
    /// order (``ResourceDecl/tree(of:)``).
    public var resources: [ResourceDecl] = []
    /// Webhook payload union members: (event name as sent, payload type).
    public var webhooks: [(name: String, type: TypeRef)]
    /// The inline schemas emitted as the component of the same shape: JSON pointer → the
    /// component's Swift name (what `diff` compares at that pointer).
    public var reusedComponents: [String: String] = [:]
    /// Area name → the spec's tag it comes from (`VectorStores` → `Vector stores`), for titles.
    public var areaTitles: [String: String] = [:]
}

/// A resource of ``OpenAIClient``: `client.chat.completions` is the resource at `["chat",
/// "completions"]`, the Swift struct `ChatCompletionsAPI`; its operations are methods, its
/// sub-resources properties.
public struct ResourceDecl: Hashable, Sendable {
    /// A sub-resource: the property that reaches it and its Swift type.
    public struct Child: Hashable, Sendable {
        public var member: String
        public var typeName: String
    }

    /// Member names from the client down, e.g. `["chat", "completions"]`.
    public var path: [String]
    /// The Swift type (``ResourceNaming/typeName(_:)``).
    public var typeName: String
    /// The module of its root resource (every root, with all below it, is in one module).
    public var module: SDKModule
    /// Its sub-resources, by member name.
    public var children: [Child]
    /// Its methods: indices into ``APIModel/operations``, by method name.
    public var operationIndices: [Int]

    /// The type of the root resource, which names the root's file (and, when that is split at
    /// the line cap, the files of the later pieces: `<Root>API+<FirstResource>`).
    public var rootTypeName: String { ResourceNaming.typeName([path[0]]) }

    /// The resource tree of `operations`: every resource path an operation lies on or under.
    public static func tree(of operations: [OperationDecl]) -> [ResourceDecl] {
        var byPath: [[String]: [Int]] = [:]
        var paths: Set<[String]> = []
        var rootModules: [String: SDKModule] = [:]
        for (index, operation) in operations.enumerated() {
            byPath[operation.resourcePath, default: []].append(index)
            for end in operation.resourcePath.indices { paths.insert(Array(operation.resourcePath[...end])) }
            rootModules[operation.resourcePath[0]] = operation.module
        }
        let sorted = paths.sorted { $0.joined(separator: ".") < $1.joined(separator: ".") }
        return sorted.map { path in
            let children = paths.filter { $0.count == path.count + 1 && Array($0.prefix(path.count)) == path }
                .sorted { $0.last! < $1.last! }
                .map { Child(member: $0.last!, typeName: ResourceNaming.typeName($0)) }
            return ResourceDecl(
                path: path, typeName: ResourceNaming.typeName(path), module: rootModules[path[0]] ?? .openAI,
                children: children,
                operationIndices: (byPath[path] ?? []).sorted { operations[$0].methodName < operations[$1].methodName })
        }
    }
}
