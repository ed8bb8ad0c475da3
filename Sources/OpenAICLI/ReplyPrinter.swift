/// Prints JSON replies in the chosen format (``OutputFormat``), through the transform.
struct ReplyPrinter {
    var format: OutputFormat
    var transform: Transform?
    var terminal: Terminal

    /// The format `auto` stands for here: `pretty` on a terminal, else `json`.
    var effectiveFormat: OutputFormat {
        format == .auto ? (terminal.outputIsTerminal ? .pretty : .json) : format
    }

    /// Prints one value (a reply, or with `oneLine` an item or event as one compact line), or
    /// nothing when the transform picks nothing.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when it cannot be written.
    func print(_ value: JSON, oneLine: Bool = false) throws {
        guard let picked = transform.map({ $0.apply(value) }) ?? value else { return }
        switch effectiveFormat {
        case .jsonl, .raw: try terminal.line(picked.compact)
        case _ where oneLine: try terminal.line(picked.compact)
        case .yaml: try terminal.line(YAMLText.print(picked))
        case .pretty: try terminal.line(picked.pretty(colors: terminal.colors))
        case .json, .auto: try terminal.line(picked.pretty())
        }
    }

    /// Prints a stream's event: a YAML document (after `---`) for `yaml`, else one JSON line.
    func printEvent(_ value: JSON) throws {
        if effectiveFormat == .yaml {
            guard let picked = transform.map({ $0.apply(value) }) ?? value else { return }
            try terminal.line("---\n" + YAMLText.print(picked))
        } else {
            try print(value, oneLine: true)
        }
    }
}
