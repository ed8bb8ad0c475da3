import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// One comparison of two translated specs; collects ``DiffFinding``s.
struct DiffRun {
    let old: TranslatedSpec
    let new: TranslatedSpec
    let oldIndex: SwiftNameIndex
    let newIndex: SwiftNameIndex
    var findings: [DiffFinding] = []
    /// Old component name → new name, for schemas renamed with the same shape.
    var renames: [String: String] = [:]

    init(old: TranslatedSpec, new: TranslatedSpec) {
        self.old = old
        self.new = new
        oldIndex = SwiftNameIndex(model: old.model, document: old.document)
        newIndex = SwiftNameIndex(model: new.model, document: new.document)
    }

    mutating func run() {
        let oldUsage = SchemaUsage.directions(of: old.document)
        let newUsage = SchemaUsage.directions(of: new.document)
        detectRenames(oldUsage: oldUsage, newUsage: newUsage)
        var comparator = SchemaComparator(old: old.document, new: new.document, renames: renames)
        let openBefore = SchemaUsage.openOnlyComponents(of: old.document)
        let openAfter = SchemaUsage.openOnlyComponents(of: new.document)

        // Component schemas present in both.
        for (name, schemaA) in old.document.schemas {
            guard let schemaB = new.document.schema(named: name) else { continue }
            let directions = (oldUsage[name] ?? []).union(newUsage[name] ?? [])
            if schemaA.deprecated != schemaB.deprecated, schemaB.deprecated {
                add(
                    .schemaDeprecated, schemaB.location.pointer, .new, "schema \(name) became deprecated",
                    directions)
            }
            comparator.compare(
                schemaA, schemaB, directions,
                openness: SchemaComparator.Openness(
                    removals: openAfter.contains(name), additions: openBefore.contains(name)))
        }
        compareOperations(&comparator)
        compareWebhooks(&comparator)
        findings += comparator.findings
        compareSwiftNames(along: comparator.matchedPointers)
        findings = DiffFinding.merged(findings)
    }

    private mutating func add(
        _ kind: ChangeKind, _ pointer: String, _ side: DiffFinding.Side, _ message: String,
        _ directions: UsageDirections,
        swiftDeclaration: String? = nil, mark: Mark? = nil
    ) {
        findings.append(
            DiffFinding(
                kind: kind, pointer: pointer, side: side, message: message, directions: directions,
                swiftDeclaration: swiftDeclaration, mark: mark))
    }

    // MARK: Components

    /// A removed schema whose shape equals an added one's is a rename; trivial shapes (a bare
    /// string) are never taken as renames.
    private mutating func detectRenames(
        oldUsage: [String: UsageDirections], newUsage: [String: UsageDirections]
    ) {
        let oldNames = Set(old.document.schemas.map(\.name))
        let newNames = Set(new.document.schemas.map(\.name))
        var fingerprinter = ShapeFingerprinter()
        var addedByShape: [String: [String]] = [:]
        for (name, schema) in new.document.schemas where !oldNames.contains(name) {
            addedByShape[fingerprinter.fingerprint(schema), default: []].append(name)
        }
        var renamedTo: Set<String> = []
        var removedByShape: [String: Int] = [:]
        for (name, schema) in old.document.schemas where !newNames.contains(name) {
            removedByShape[fingerprinter.fingerprint(schema), default: 0] += 1
        }
        for (name, schema) in old.document.schemas where !newNames.contains(name) {
            let shape = fingerprinter.fingerprint(schema)
            let meaningful = ["p{", "e:", "u[", "&["].contains { shape.contains($0) }
            // Several removed and added schemas of one shape: pair by name only when one added
            // name is clearly the closest; otherwise they stay removed and added.
            let candidates = (addedByShape[shape] ?? []).filter { !renamedTo.contains($0) }
            let target =
                (removedByShape[shape] ?? 0) == 1 && candidates.count == 1
                ? candidates.first : Self.closestName(to: name, among: candidates)
            if meaningful, let target {
                renamedTo.insert(target)
                renames[name] = target
                let from = oldIndex.components[name] ?? name
                let to = newIndex.components[target] ?? target
                add(
                    .schemaRenamed, new.document.schema(named: target)!.location.pointer, .new,
                    "schema \(name) renamed to \(target) (same shape)", newUsage[target] ?? [],
                    swiftDeclaration: from == to ? to : "\(from) → \(to)")
            } else {
                add(
                    .schemaRemoved, schema.location.pointer, .old, "schema \(name) removed",
                    oldUsage[name] ?? [])
            }
        }
        for (name, schema) in new.document.schemas
        where !oldNames.contains(name) && !renamedTo.contains(name) {
            add(
                .schemaAdded, schema.location.pointer, .new, "schema \(name) added", newUsage[name] ?? [])
        }
    }

    /// The candidate sharing the longest common prefix plus suffix with `name`, when it is
    /// unique and shares at least half of the name.
    static func closestName(to name: String, among candidates: [String]) -> String? {
        func score(_ candidate: String) -> Int {
            let a = Array(name.lowercased())
            let b = Array(candidate.lowercased())
            var prefix = 0
            while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
                suffix += 1
            }
            return prefix + suffix
        }
        let scored = candidates.map { ($0, score($0)) }.sorted { $0.1 > $1.1 }
        guard let best = scored.first, best.1 * 2 >= name.count,
            scored.count == 1 || scored[1].1 < best.1
        else { return nil }
        return best.0
    }

    // MARK: Operations

    private mutating func compareOperations(_ comparator: inout SchemaComparator) {
        let oldByKey = Dictionary(
            old.document.operations.map { (SwiftNameIndex.operationKey($0), $0) },
            uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.document.operations.map(SwiftNameIndex.operationKey))
        for operation in old.document.operations
        where !newKeys.contains(SwiftNameIndex.operationKey(operation)) {
            add(
                .operationRemoved, operation.location.pointer, .old,
                "\(operation.method.uppercased()) \(operation.path) removed", .request,
                mark: operation.location.mark)
        }
        for b in new.document.operations {
            let title = "\(b.method.uppercased()) \(b.path)"
            guard let a = oldByKey[SwiftNameIndex.operationKey(b)] else {
                add(
                    .operationAdded, b.location.pointer, .new, "\(title) added", .request,
                    mark: b.location.mark)
                continue
            }
            if a.deprecated != b.deprecated {
                add(
                    b.deprecated ? .operationDeprecated : .operationUndeprecated, b.location.pointer,
                    .new,
                    "\(title) \(b.deprecated ? "became deprecated" : "is no longer deprecated")", .request,
                    mark: b.location.mark)
            }
            compareParameters(a, b, &comparator)
            compareRequestBodies(a, b, &comparator)
            compareResponses(a, b, &comparator)
        }
    }

    private mutating func compareParameters(
        _ a: Operation, _ b: Operation, _ comparator: inout SchemaComparator
    ) {
        // Path parameters are matched by position (renaming `{id}` is no change), others by name.
        func keyed(_ parameters: [Parameter]) -> [(String, Parameter)] {
            var pathIndex = 0
            return parameters.map { parameter in
                if parameter.location == .path {
                    pathIndex += 1
                    return ("path#\(pathIndex)", parameter)
                }
                return ("\(parameter.location.rawValue):\(parameter.name)", parameter)
            }
        }
        let before = keyed(a.parameters)
        let after = keyed(b.parameters)
        let afterByKey = Dictionary(after, uniquingKeysWith: { first, _ in first })
        let beforeKeys = Set(before.map(\.0))
        for (key, parameter) in before {
            guard let newParameter = afterByKey[key] else {
                add(
                    .parameterRemoved, parameter.source.pointer, .old,
                    "\(parameter.location.rawValue) parameter `\(parameter.name)` removed", .request)
                continue
            }
            if parameter.required != newParameter.required {
                add(
                    newParameter.required ? .parameterBecameRequired : .parameterBecameOptional,
                    newParameter.source.pointer, .new,
                    "parameter `\(newParameter.name)` became \(newParameter.required ? "required" : "optional")",
                    .request)
            }
            comparator.compare(
                parameter.schema, newParameter.schema, .request,
                required: (parameter.required, newParameter.required))
        }
        for (key, parameter) in after where !beforeKeys.contains(key) {
            add(
                parameter.required ? .requiredParameterAdded : .parameterAdded,
                parameter.source.pointer, .new,
                "\(parameter.required ? "required " : "")\(parameter.location.rawValue) parameter `\(parameter.name)` added",
                .request)
        }
    }

    private mutating func compareRequestBodies(
        _ a: Operation, _ b: Operation, _ comparator: inout SchemaComparator
    ) {
        let pointerA = a.location.pointer + "/requestBody"
        let pointerB = b.location.pointer + "/requestBody"
        switch (a.requestBody, b.requestBody) {
        case (nil, nil):
            return
        case (.some, nil):
            add(.requestBodyRemoved, pointerA, .old, "the request body was removed", .request)
        case (nil, .some):
            add(.requestBodyAdded, pointerB, .new, "a request body was added", .request)
        case (let bodyA?, let bodyB?):
            // What the generated method takes: the spec's flag, or a schema that requires members
            // (``Translator/bodyIsRequired(_:schemas:)``), so a member made required can make the
            // body required too.
            let requiredA = oldIndex.operations[SwiftNameIndex.operationKey(a)]?.bodyRequired ?? bodyA.required
            let requiredB = newIndex.operations[SwiftNameIndex.operationKey(b)]?.bodyRequired ?? bodyB.required
            if requiredA != requiredB {
                let why =
                    requiredB != bodyB.required || requiredA != bodyA.required
                    ? (requiredB ? " (its schema now requires members)" : " (its schema no longer requires members)")
                    : ""
                add(
                    requiredB ? .requestBodyBecameRequired : .requestBodyBecameOptional,
                    pointerB, .new,
                    "the request body became \(requiredB ? "required" : "optional")\(why)", .request)
            }
            compareContent(
                bodyA.content, bodyB.content, pointerA + "/content", pointerB + "/content", .request,
                &comparator)
        }
    }

    private mutating func compareContent(
        _ before: [MediaType], _ after: [MediaType], _ pointerA: String, _ pointerB: String,
        _ directions: UsageDirections, _ comparator: inout SchemaComparator
    ) {
        let prefix = directions == .request ? "request" : "response"
        let afterByType = Dictionary(
            after.map { ($0.contentType, $0) }, uniquingKeysWith: { first, _ in first })
        let beforeTypes = Set(before.map(\.contentType))
        for media in before {
            guard let newMedia = afterByType[media.contentType] else {
                let streaming = media.contentType == "text/event-stream" && directions == .response
                add(
                    streaming
                        ? .streamingRemoved
                        : directions == .request ? .requestContentTypeRemoved : .responseContentTypeRemoved,
                    pointerA + "/" + escapePointerToken(media.contentType), .old,
                    "\(prefix) content type \(media.contentType) removed", directions)
                continue
            }
            if let schemaA = media.schema, let schemaB = newMedia.schema {
                comparator.compare(schemaA, schemaB, directions)
            }
        }
        for media in after where !beforeTypes.contains(media.contentType) {
            let streaming = media.contentType == "text/event-stream" && directions == .response
            add(
                streaming
                    ? .streamingAdded : directions == .request ? .requestContentTypeAdded : .responseContentTypeAdded,
                pointerB + "/" + escapePointerToken(media.contentType), .new,
                "\(prefix) content type \(media.contentType) added", directions)
        }
    }

    private mutating func compareResponses(
        _ a: Operation, _ b: Operation, _ comparator: inout SchemaComparator
    ) {
        let afterByCode = Dictionary(
            b.responses.map { ($0.statusCode, $0) }, uniquingKeysWith: { first, _ in first })
        let beforeCodes = Set(a.responses.map(\.statusCode))
        let pointerA = a.location.pointer + "/responses/"
        let pointerB = b.location.pointer + "/responses/"
        for response in a.responses {
            guard let newResponse = afterByCode[response.statusCode] else {
                add(
                    .statusCodeRemoved, pointerA + escapePointerToken(response.statusCode), .old,
                    "response \(response.statusCode) removed", .response)
                continue
            }
            let code = escapePointerToken(response.statusCode)
            compareContent(
                response.content, newResponse.content, pointerA + code + "/content",
                pointerB + code + "/content",
                .response, &comparator)
        }
        for response in b.responses where !beforeCodes.contains(response.statusCode) {
            add(
                .statusCodeAdded, pointerB + escapePointerToken(response.statusCode), .new,
                "response \(response.statusCode) added", .response)
        }
    }

    // MARK: Webhooks

    private mutating func compareWebhooks(_ comparator: inout SchemaComparator) {
        let afterByName = Dictionary(
            new.document.webhooks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let beforeNames = Set(old.document.webhooks.map(\.name))
        for webhook in old.document.webhooks {
            guard let newWebhook = afterByName[webhook.name] else {
                add(
                    .webhookRemoved, webhook.location.pointer, .old, "webhook \(webhook.name) removed",
                    .response)
                continue
            }
            if let payloadA = webhook.payload, let payloadB = newWebhook.payload {
                comparator.compare(payloadA, payloadB, .response)
            }
        }
        for webhook in new.document.webhooks where !beforeNames.contains(webhook.name) {
            add(
                .webhookAdded, webhook.location.pointer, .new, "webhook \(webhook.name) added", .response)
        }
    }

    // MARK: Swift names

    /// Swift-only changes the wire does not see: types, properties, cases, methods and argument
    /// labels whose generated names changed. Nested types, cases and properties are compared
    /// along `pairs`, the schemas the comparison matched (by name, `$ref`, discriminating
    /// constant or shape), so a union whose variants moved reports no renames.
    private mutating func compareSwiftNames(along pairs: [(old: String, new: String)]) {
        for (name, _) in new.document.schemas {
            guard let before = oldIndex.components[name], let after = newIndex.components[name],
                before != after
            else {
                continue
            }
            add(
                .swiftTypeRenamed, "#/components/schemas/" + escapePointerToken(name), .new,
                "Swift type \(before) is now \(after)", [], swiftDeclaration: "\(before) → \(after)",
                mark: new.document.schema(named: name)?.location.mark)
        }
        let componentPrefix = "#/components/schemas/"
        var seen: Set<String> = []
        var matched: [(old: String, new: String)] = []
        for pair in pairs where seen.insert(pair.old + "\u{0}" + pair.new).inserted {
            matched.append(pair)
        }
        matched.sort { ($0.new, $0.old) < ($1.new, $1.old) }
        for (pointerA, pointerB) in matched {
            guard let before = oldIndex.types[pointerA], let after = newIndex.types[pointerB] else {
                continue
            }
            let isComponent =
                pointerB.hasPrefix(componentPrefix)
                && !pointerB.dropFirst(componentPrefix.count).contains("/")
            if !isComponent, Self.lastComponent(before) != Self.lastComponent(after) {
                add(
                    .swiftTypeRenamed, pointerB, .new, "Swift type \(before) is now \(after)", [],
                    swiftDeclaration: "\(before) → \(after)")
            }
            if let casesA = oldIndex.enumCases[before], let casesB = newIndex.enumCases[after] {
                for (raw, caseA) in casesA.sorted(by: { $0.key < $1.key }) {
                    guard let caseB = casesB[raw], caseA != caseB else { continue }
                    add(
                        .swiftCaseRenamed, pointerB, .new, "case .\(caseA) (\"\(raw)\") is now .\(caseB)", [],
                        swiftDeclaration: "\(after).\(caseB)")
                }
            }
            if let casesA = oldIndex.unionCases[before], let casesB = newIndex.unionCases[after] {
                for (type, caseA) in casesA.sorted(by: { $0.key < $1.key }) {
                    guard let caseB = casesB[type], caseA != caseB else { continue }
                    add(
                        .swiftCaseRenamed, pointerB, .new, "case .\(caseA)(\(type)) is now .\(caseB)", [],
                        swiftDeclaration: "\(after).\(caseB)")
                }
            }
        }
        for (pointerA, pointerB) in matched {
            guard let before = oldIndex.properties[pointerA], let after = newIndex.properties[pointerB],
                Self.lastComponent(before) != Self.lastComponent(after)
            else { continue }
            add(
                .swiftPropertyRenamed, pointerB, .new, "Swift property \(before) is now \(after)", [],
                swiftDeclaration: "\(before) → \(after)")
        }
        for operation in new.document.operations {
            let key = SwiftNameIndex.operationKey(operation)
            guard let before = oldIndex.operations[key], let after = newIndex.operations[key] else {
                continue
            }
            let callBefore = SwiftNameIndex.call(before)
            let callAfter = SwiftNameIndex.call(after)
            if before.resourcePath != after.resourcePath || before.methodName != after.methodName {
                add(
                    .swiftMethodRenamed, operation.location.pointer, .new,
                    "\(callBefore) is now \(callAfter)", [],
                    swiftDeclaration: "\(callBefore) → \(callAfter)")
            }
            let labelsAfter = Dictionary(
                after.parameters.map { ($0.wireName, $0.name) }, uniquingKeysWith: { first, _ in first })
            for parameter in before.parameters {
                guard let label = labelsAfter[parameter.wireName], label != parameter.name else { continue }
                add(
                    .swiftParameterLabelChanged, operation.location.pointer, .new,
                    "argument label \(parameter.name): is now \(label):", [], swiftDeclaration: callAfter)
            }
        }
    }

    static func lastComponent(_ path: String) -> Substring {
        path.split(separator: ".").last ?? Substring(path)
    }
}
