import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// The overlay stage: every section of `Spec/overrides.json` laid over a loaded document, so that
/// translation reads the spec and the project's corrections from one place.
///
/// - `schemas`: each correction on the schema at its pointer (``SchemaOverlay``).
/// - `secret-members`: the pointers, each of a property the document has, in
///   ``OpenAPIDocument/secretMembers``.
/// - `leading-members`: ``OpenAPIDocument/leadingMembers``.
/// - `operations`, `streaming`, `stream-endings`, `binary-responses`, `body-defaults`: on the
///   operation their key names (its operationId), in ``Operation/overlay``.
///
/// An entry that matches nothing (a pointer to no schema, an operationId no operation has, a
/// stream's event schema the spec lacks: the spec moved or renamed it) is not applied and is an `overlay-unmatched` diagnostic naming the overlay
/// file and the entry's pointer in it.
struct SpecOverlay {
    var overrides: Overrides

    func apply(to loaded: OpenAPIDocument) -> OpenAPIDocument {
        let file = overrides.source
        var document = SchemaOverlay(corrections: overrides.schemas, file: file).apply(to: loaded)
        document.overlayFile = file
        document.leadingMembers = overrides.leadingMembers

        let pointers = Self.schemaPointers(document)
        document.secretMembers = overrides.secretMembers.filter(pointers.contains)
        for pointer in overrides.secretMembers.subtracting(pointers).sorted() {
            document.diagnostics.append(
                Diagnostic(
                    .overlayUnmatched,
                    message: "the secret member \(pointer) matches no property of \(loaded.file); it is not applied",
                    location: SourceLocation(
                        file: file, mark: Mark(line: 1, column: 1), pointer: "#/secret-members/members")))
        }

        // Each section's entries that match nothing yet, with why: every entry until its operation
        // is found.
        let noOperation = "no operation of \(loaded.file) has this operationId; the entry is not applied"
        func entries(_ keys: Dictionary<String, some Any>.Keys) -> [String: String] {
            Dictionary(uniqueKeysWithValues: keys.map { ($0, noOperation) })
        }
        var unmatched: [(section: String, entries: [String: String])] = [
            ("operations", entries(overrides.operations.keys)), ("streaming", entries(overrides.streaming.keys)),
            ("stream-endings", entries(overrides.streamEndings.keys)),
            ("binary-responses", entries(overrides.binaryResponses.keys)),
            ("body-defaults", entries(overrides.bodyDefaults.keys)),
        ]
        document.operations = document.operations.map { operation in
            let key = Translator.operationKey(operation)
            for index in unmatched.indices { unmatched[index].entries[key] = nil }
            var operation = operation
            operation.overlay.methodPath = overrides.operations[key].map { $0.split(separator: ".").map(String.init) }
            if let stream = overrides.streaming[key] {
                if document.schema(named: stream.eventSchema) != nil {
                    operation.overlay.stream = UndeclaredStream(
                        eventSchema: stream.eventSchema, eventNameInEventLine: stream.framing == "event")
                } else {
                    unmatched[1].entries[key] =
                        "its event schema \(stream.eventSchema) is no component schema of \(loaded.file); "
                        + "the entry is not applied"
                }
            }
            operation.overlay.streamEnding = overrides.streamEndings[key]
            operation.overlay.binaryReplyTypes = overrides.binaryResponses[key]
            operation.overlay.bodyDefaults = overrides.bodyDefaults[key] ?? [:]
            return operation
        }
        for (section, entries) in unmatched {
            for (key, message) in entries.sorted(by: { $0.key < $1.key }) {
                document.diagnostics.append(
                    .overlay(.overlayUnmatched, file: file, section: section, operationID: key, message))
            }
        }
        return document
    }

    /// The JSON pointer of every schema of the document, at any depth (what `secret-members` may name).
    static func schemaPointers(_ document: OpenAPIDocument) -> Set<String> {
        var pointers: Set<String> = []
        var seen: Set<ObjectIdentifier> = []
        func visit(_ schema: Schema) {
            guard seen.insert(ObjectIdentifier(schema)).inserted else { return }
            pointers.insert(schema.location.pointer)
            for property in schema.properties { visit(property.schema) }
            if case .schema(let values) = schema.additionalProperties { visit(values) }
            schema.items.map(visit)
            for variant in schema.oneOf + schema.anyOf + schema.allOf { visit(variant) }
        }
        for (_, schema) in document.schemas { visit(schema) }
        for operation in document.operations {
            for parameter in operation.parameters { visit(parameter.schema) }
            for media in (operation.requestBody?.content ?? []) + operation.responses.flatMap(\.content) {
                media.schema.map(visit)
            }
        }
        for webhook in document.webhooks { webhook.payload.map(visit) }
        return pointers
    }
}
