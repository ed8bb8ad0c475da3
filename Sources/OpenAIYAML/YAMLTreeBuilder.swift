import OpenAILibYAML

/// Builds a ``YAMLNode`` tree from libyaml events with an explicit stack (no recursion, so deep nesting cannot
/// overflow the call stack).
///
/// Used once per parse by ``YAMLParser``; the input buffer must stay valid until ``run()`` returns.
struct YAMLTreeBuilder {
    /// The tag of YAML merge keys (`!!merge`).
    private static let mergeTag = "tag:yaml.org,2002:merge"

    /// A mapping key read but not yet given its value.
    private struct PendingKey {
        var text: String
        var mark: Mark
        var isMerge: Bool
    }

    /// Pairs from a merge key (`<<`), inserted where the merge key stood.
    private struct Merge {
        var position: Int
        var pairs: [YAMLPair]
    }

    /// An open sequence or mapping. One struct for both so that the stack is mutated in place.
    private struct Frame {
        var isMapping: Bool
        var mark: Mark
        var anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var keyIndex: [String: Int]? = nil
        var pendingKey: PendingKey? = nil
        var merges: [Merge] = []
    }

    private let file: String
    private let input: UnsafeBufferPointer<UInt8>
    private let limits: YAMLParser.Limits
    private var stack: [Frame] = []
    private var anchors: [String: YAMLNode] = [:]
    /// How many nodes each anchored node holds, itself included (what an alias to it adds).
    private var anchorSizes: [String: Int] = [:]
    /// How many nodes the document holds so far, every alias counted as the nodes it stands for.
    private var nodeCount = 0
    /// The node count when each open frame started.
    private var frameStarts: [Int] = []
    /// How many bytes of scalar text each anchored node holds (what an alias to it adds).
    private var anchorBytes: [String: Int] = [:]
    /// The bytes of scalar text the document holds so far, every alias counted as the text it
    /// stands for: a long string aliased a thousand times is a thousand strings to whatever reads
    /// the tree.
    private var textBytes = 0
    /// The text byte count when each open frame started.
    private var frameTextStarts: [Int] = []
    private var warnings: [YAMLError] = []
    private var root: YAMLNode?
    private var finished = false

    /// Creates a builder.
    /// - Parameters:
    ///   - file: The file name for messages.
    ///   - input: The YAML bytes; must stay valid during ``run()``.
    init(file: String, input: UnsafeBufferPointer<UInt8>, limits: YAMLParser.Limits) {
        self.file = file
        self.input = input
        self.limits = limits
    }

    /// Counts `nodes` more nodes and `bytes` more bytes of scalar text (an alias: what it stands
    /// for); fails once the document holds more of either than the limits allow.
    private mutating func count(nodes: Int, bytes: Int = 0, at mark: Mark, alias: String? = nil) throws(YAMLError) {
        nodeCount += nodes
        textBytes += bytes
        let over: String
        if nodeCount > limits.maxNodes {
            over =
                "\(limits.maxNodes) nodes, aliases counted as the nodes they stand for"
                + (alias.map { " (the alias '*\($0)' adds \(nodes))" } ?? "") + "; this is a limit of the generator"
        } else if textBytes > limits.maxExpandedBytes {
            over =
                "\(limits.maxExpandedBytes) bytes of text, aliases counted as the text they stand for"
                + (alias.map { " (the alias '*\($0)' adds \(bytes))" } ?? "") + "; this is a limit of the reader"
        } else {
            return
        }
        throw YAMLError(file: file, mark: mark, message: "the document holds more than " + over)
    }

    /// Parses the input up to the end of the first document.
    /// - Returns: The document, or the first error.
    mutating func run() -> Result<YAMLDocument, YAMLError> {
        guard input.count <= limits.maxBytes else {
            return .failure(
                YAMLError(
                    file: file, mark: Mark(line: 1, column: 1),
                    message:
                        "the document is \(input.count) bytes, more than the \(limits.maxBytes) the generator reads"))
        }
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            return .failure(YAMLError(file: file, mark: Mark(line: 1, column: 1), message: "libyaml: out of memory"))
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer { event.deallocate() }
        do throws(YAMLError) {
            while !finished {
                guard yaml_parser_parse(parser, event) == 1 else { throw parserError(parser.pointee) }
                defer { yaml_event_delete(event) }
                try handle(event.pointee)
            }
            if root != nil {
                noteFurtherDocuments(parser, event)
            }
        } catch {
            var located = error
            if located.pointer == nil { located.pointer = currentPointer() }
            return .failure(located)
        }
        let rootNode =
            root
            ?? YAMLNode(
                kind: .scalar(YAMLScalar(text: "", style: .plain, tag: nil, resolved: .null)),
                mark: Mark(line: 1, column: 1)
            )
        return .success(YAMLDocument(root: rootNode, warnings: warnings))
    }

    /// Reads one more event after the first document and warns when another document follows.
    private mutating func noteFurtherDocuments(
        _ parser: UnsafeMutablePointer<yaml_parser_t>,
        _ event: UnsafeMutablePointer<yaml_event_t>
    ) {
        guard yaml_parser_parse(parser, event) == 1 else {
            warnings.append(parserError(parser.pointee))
            return
        }
        defer { yaml_event_delete(event) }
        if event.pointee.type == YAML_DOCUMENT_START_EVENT {
            warnings.append(
                YAMLError(
                    file: file,
                    mark: Self.mark(event.pointee.start_mark),
                    message: "the stream has more than one document; only the first is used"
                )
            )
        }
    }

    // MARK: Events

    private mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
        let mark = Self.mark(event.start_mark)
        switch event.type {
        case YAML_SCALAR_EVENT:
            try handleScalar(event, mark: mark)
        case YAML_ALIAS_EVENT:
            let name = String(cString: event.data.alias.anchor)
            guard var node = anchors[name] else {
                let recursive = stack.contains { $0.anchor == name }
                throw YAMLError(
                    file: file,
                    mark: mark,
                    message: recursive
                        ? "alias '*\(name)' refers to a node that contains it; recursive aliases are not supported"
                        : "undefined alias '*\(name)'"
                )
            }
            node.mark = mark
            try count(nodes: anchorSizes[name] ?? 1, bytes: anchorBytes[name] ?? 0, at: mark, alias: name)
            try attach(node)
        case YAML_SEQUENCE_START_EVENT:
            try checkNotKey(kind: "sequence", mark: mark)
            try checkDepth(mark)
            let anchor = event.data.sequence_start.anchor.map { String(cString: $0) }
            try count(nodes: 1, at: mark)
            frameStarts.append(nodeCount - 1)
            frameTextStarts.append(textBytes)
            stack.append(Frame(isMapping: false, mark: mark, anchor: anchor))
        case YAML_MAPPING_START_EVENT:
            try checkNotKey(kind: "mapping", mark: mark)
            try checkDepth(mark)
            let anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
            try count(nodes: 1, at: mark)
            frameStarts.append(nodeCount - 1)
            frameTextStarts.append(textBytes)
            stack.append(Frame(isMapping: true, mark: mark, anchor: anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            let start = frameStarts.removeLast()
            let textStart = frameTextStarts.removeLast()
            let node =
                frame.isMapping ? Self.finishMapping(frame) : YAMLNode(kind: .sequence(frame.items), mark: frame.mark)
            if let anchor = frame.anchor {
                anchors[anchor] = node
                anchorSizes[anchor] = nodeCount - start
                anchorBytes[anchor] = textBytes - textStart
            }
            try attach(node)
        case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
            finished = true
        default:
            break  // stream start, document start, no event
        }
    }

    private mutating func handleScalar(_ event: yaml_event_t, mark: Mark) throws(YAMLError) {
        let data = event.data.scalar
        try count(nodes: 1, bytes: data.length, at: mark)
        let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
        let text = String(decoding: bytes, as: UTF8.self)
        let tag = data.tag.map { String(cString: $0) }
        let style: YAMLScalar.Style
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        // Fast path: a mapping key without an anchor needs no node.
        if data.anchor == nil, let top = stack.indices.last, stack[top].isMapping, stack[top].pendingKey == nil {
            stack[top].pendingKey = PendingKey(
                text: text,
                mark: mark,
                isMerge: Self.isMergeKey(text: text, style: style, tag: tag)
            )
            return
        }
        guard let resolved = YAMLScalar.resolve(bytes, text: text, style: style, tag: tag) else {
            let tagName = tag.map { $0.replacingPrefix(YAMLScalar.coreTagPrefix, with: "!!") } ?? ""
            throw YAMLError(file: file, mark: mark, message: "'\(text)' is not a valid \(tagName) value")
        }
        let node = YAMLNode(
            kind: .scalar(YAMLScalar(text: text, style: style, tag: tag, resolved: resolved)),
            mark: mark
        )
        if let anchor = data.anchor {
            anchors[String(cString: anchor)] = node
            anchorSizes[String(cString: anchor)] = 1
            anchorBytes[String(cString: anchor)] = data.length
        }
        try attach(node)
    }

    // MARK: Tree

    /// Fails when a sequence or mapping would nest deeper than the limit.
    private func checkDepth(_ mark: Mark) throws(YAMLError) {
        guard stack.count < limits.maxDepth else {
            throw YAMLError(
                file: file, mark: mark,
                message:
                    "sequences and mappings nest deeper than \(limits.maxDepth) levels here; this is a limit of the generator (the OpenAI spec nests 22)"
            )
        }
    }

    /// Fails when a sequence or mapping starts where a mapping key is expected.
    private func checkNotKey(kind: String, mark: Mark) throws(YAMLError) {
        if let top = stack.last, top.isMapping, top.pendingKey == nil {
            throw YAMLError(
                file: file,
                mark: mark,
                message: "a \(kind) cannot be a mapping key; only scalar keys are supported"
            )
        }
    }

    /// Adds a finished node to the open collection, or makes it the root.
    private mutating func attach(_ node: YAMLNode) throws(YAMLError) {
        guard let top = stack.indices.last else {
            root = node
            return
        }
        guard stack[top].isMapping else {
            stack[top].items.append(node)
            return
        }
        guard let key = stack[top].pendingKey else {
            // A key given by an alias or with an anchor.
            guard case .scalar(let scalar) = node.kind else {
                throw YAMLError(
                    file: file,
                    mark: node.mark,
                    message: "an alias to a collection cannot be a mapping key; only scalar keys are supported"
                )
            }
            stack[top].pendingKey = PendingKey(
                text: scalar.text,
                mark: node.mark,
                isMerge: Self.isMergeKey(text: scalar.text, style: scalar.style, tag: scalar.tag)
            )
            return
        }
        stack[top].pendingKey = nil
        if key.isMerge {
            try addMerge(node, frame: top)
        } else {
            addPair(YAMLPair(key: key.text, keyMark: key.mark, value: node), frame: top)
        }
    }

    /// Adds a pair to a mapping frame; a duplicate key keeps its first position and takes the new value.
    private mutating func addPair(_ pair: YAMLPair, frame top: Int) {
        let existing: Int?
        if let keyIndex = stack[top].keyIndex {
            existing = keyIndex[pair.key]
        } else {
            existing = stack[top].pairs.firstIndex { $0.key == pair.key }
        }
        if let existing {
            let first = stack[top].pairs[existing].keyMark
            warnings.append(
                YAMLError(
                    file: file,
                    mark: pair.keyMark,
                    message: "duplicate mapping key '\(pair.key)' (first at \(first)); the last value is used"
                )
            )
            stack[top].pairs[existing].value = pair.value
            return
        }
        stack[top].pairs.append(pair)
        let count = stack[top].pairs.count
        if stack[top].keyIndex != nil {
            stack[top].keyIndex![pair.key] = count - 1
        } else if count > YAMLNode.keyIndexThreshold {
            stack[top].keyIndex = Self.makeIndex(stack[top].pairs)
        }
    }

    /// Records the value of a merge key (`<<`): a mapping or a sequence of mappings.
    private mutating func addMerge(_ node: YAMLNode, frame top: Int) throws(YAMLError) {
        var merged: [YAMLPair] = []
        switch node.kind {
        case .mapping(let pairs):
            merged = pairs
        case .sequence(let items):
            for item in items {
                guard case .mapping(let pairs) = item.kind else {
                    throw YAMLError(
                        file: file,
                        mark: item.mark,
                        message: "a merge key ('<<') sequence may contain only mappings"
                    )
                }
                merged += pairs
            }
        case .scalar:
            throw YAMLError(
                file: file,
                mark: node.mark,
                message: "the value of a merge key ('<<') must be a mapping or a sequence of mappings"
            )
        }
        stack[top].merges.append(Merge(position: stack[top].pairs.count, pairs: merged))
    }

    /// Turns a closed mapping frame into a node, applying merge keys.
    private static func finishMapping(_ frame: Frame) -> YAMLNode {
        guard !frame.merges.isEmpty else {
            return YAMLNode(kind: .mapping(frame.pairs), mark: frame.mark, keyIndex: frame.keyIndex)
        }
        var seen = Set(frame.pairs.map(\.key))
        var result: [YAMLPair] = []
        var next = 0
        for position in 0...frame.pairs.count {
            while next < frame.merges.count, frame.merges[next].position == position {
                for pair in frame.merges[next].pairs where seen.insert(pair.key).inserted {
                    result.append(pair)
                }
                next += 1
            }
            if position < frame.pairs.count { result.append(frame.pairs[position]) }
        }
        let keyIndex = result.count > YAMLNode.keyIndexThreshold ? makeIndex(result) : nil
        return YAMLNode(kind: .mapping(result), mark: frame.mark, keyIndex: keyIndex)
    }

    private static func makeIndex(_ pairs: [YAMLPair]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(pairs.count * 2)
        for (position, pair) in pairs.enumerated() { index[pair.key] = position }
        return index
    }

    private static func isMergeKey(text: String, style: YAMLScalar.Style, tag: String?) -> Bool {
        text == "<<" && ((style == .plain && tag == nil) || tag == mergeTag)
    }

    // MARK: Marks and errors

    /// The JSON pointer of the innermost open node: each mapping's pending (or last) key, each
    /// sequence's next index, escaped as RFC 6901 says.
    private func currentPointer() -> String {
        var pointer = "#"
        for frame in stack {
            let token: String
            if frame.isMapping {
                guard let key = frame.pendingKey?.text ?? frame.pairs.last?.key else { break }
                token = key
            } else {
                token = String(frame.items.count)
            }
            pointer += "/" + escapePointerToken(token)
        }
        return pointer
    }

    /// Converts libyaml's 0-based mark to a 1-based ``Mark``.
    private static func mark(_ mark: yaml_mark_t) -> Mark {
        Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// The 1-based position of a byte offset in the input, for reader errors, which carry only an offset.
    private func mark(atOffset offset: Int) -> Mark {
        var line = 1
        var column = 1
        for byte in input.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Mark(line: line, column: column)
    }

    /// Describes libyaml's error state.
    private func parserError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(file: file, mark: Mark(line: 1, column: 1), message: "libyaml: out of memory")
        case YAML_READER_ERROR:
            var message = problem
            if parser.problem_value != -1 {
                message += " (byte 0x\(String(parser.problem_value, radix: 16, uppercase: true)))"
            }
            return YAMLError(file: file, mark: mark(atOffset: Int(parser.problem_offset)), message: message)
        default:
            var message = problem
            if let context = parser.context {
                message += " (\(String(cString: context)) that started at \(Self.mark(parser.context_mark)))"
            }
            return YAMLError(file: file, mark: Self.mark(parser.problem_mark), message: message)
        }
    }
}

extension String {
    /// The string with `prefix` replaced by `replacement`, or the string itself when it lacks the prefix.
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
