import OpenAICatalogueModel

/// Shell completions: `openai completion bash|zsh|fish` prints a script that asks the tool itself
/// (`openai __complete --line TEXT`) for the candidates, so they come from the same catalogue as the
/// commands and never go stale.
package enum Completion {
    package enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    /// The completion script for `shell` (install: README, "Shell completion").
    package static func script(_ shell: Shell) -> String {
        switch shell {
        case .bash:
            return #"""
                # openai completion for bash: eval "$(openai completion bash)"
                _openai() {
                    local line="${COMP_LINE:0:COMP_POINT}" word prefix="" candidate
                    word="${line##*[[:space:]]}"
                    # bash splits words at ':' and '=' (COMP_WORDBREAKS): reply with the part after the last one.
                    if [[ "$word" == *[:=]* ]]; then prefix="${word%"${word##*[:=]}"}"; fi
                    COMPREPLY=()
                    while IFS= read -r candidate; do
                        [[ -n "$candidate" ]] && COMPREPLY+=("${candidate#"$prefix"}")
                    done < <(openai __complete --line "$line" 2>/dev/null)
                }
                complete -o default -F _openai openai
                """#
        case .zsh:
            return #"""
                #compdef openai
                # openai completion for zsh: eval "$(openai completion zsh)", after compinit
                _openai() {
                    local -a candidates
                    candidates=("${(@f)$(openai __complete --line "${BUFFER[1,CURSOR]}" 2>/dev/null)}")
                    if [[ -z "${candidates[1]}" ]]; then
                        _files
                    else
                        compadd -Q -- "${candidates[@]}"
                    fi
                }
                compdef _openai openai
                """#
        case .fish:
            return #"""
                # openai completion for fish: openai completion fish | source
                complete -c openai -f -a '(openai __complete --line (commandline -cp) 2>/dev/null)'
                """#
        }
    }

    /// The candidates for the last word of `line` (the command line up to the cursor, the
    /// program's name first): resources and `completion`, then a resource's methods, then the
    /// command's flags and the global ones, and an enum flag's values.
    package static func candidates(line: String, catalogue: Catalogue) -> [String] {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsWord = line.last.map { $0 == " " || $0 == "\t" } ?? true
        let current = endsWord ? "" : (words.popLast() ?? "")
        if !words.isEmpty { words.removeFirst() }  // the program
        var positional: [String] = []
        var previousFlag: String?
        var operation: APIOperation?
        for word in words {
            if word.hasPrefix("--") {
                previousFlag = word.contains("=") ? nil : String(word.dropFirst(2))
                continue
            }
            if let flag = previousFlag, takesValue(flag, operation: operation) {
                previousFlag = nil
                continue
            }
            previousFlag = nil
            positional.append(word)
            if positional.count == 2 {
                operation = catalogue.operation(resource: positional[0], method: positional[1])
            }
        }
        let globals = GlobalOptions.valued.union(GlobalOptions.switches).sorted().map { "--" + $0 }
        var options: [String]
        if let flag = previousFlag, takesValue(flag, operation: operation) {
            if flag == "format" {
                options = OutputFormat.allCases.map(\.rawValue)
            } else if let schema = operation?.flag(named: flag).map({
                $0.singular ? $0.flag.schema.items : $0.flag.schema
            }) ?? nil {
                options = schema.type == "boolean" ? ["true", "false"] : schema.knownValues
            } else {
                options = []
            }
        } else if current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            // `--format=js`: the flag's values, after its `=`.
            let flag = String(current[current.index(current.startIndex, offsetBy: 2)..<equals])
            let prefix = String(current[...equals])
            let values: [String]
            if flag == "format" {
                values = OutputFormat.allCases.map(\.rawValue)
            } else if let schema = operation?.flags.first(where: { $0.flag == flag })?.schema {
                values = schema.type == "boolean" ? ["true", "false"] : schema.knownValues
            } else {
                values = []
            }
            options = values.map { prefix + $0 }
        } else if current.hasPrefix("-") {
            var own: [String] = []
            if let operation {
                for flag in operation.flags {
                    own += ([flag.flag] + flag.aliases + [flag.singular].compactMap { $0 }).map { "--" + $0 }
                }
                own += ["--output", "--force"]
                if operation.body != nil { own.append("--allow-files") }
                if operation.takesMaxItems { own.append("--max-items") }
            }
            options = own + globals
        } else {
            switch positional.count {
            case 0: options = catalogue.resources + ["completion", "help"]
            case 1 where positional[0] == "completion": options = Shell.allCases.map(\.rawValue)
            case 1: options = catalogue.methods(of: positional[0]).map(\.name)
            default: options = []
            }
        }
        return options.filter { $0.hasPrefix(current) }
    }

    private static func takesValue(_ flag: String, operation: APIOperation?) -> Bool {
        if let (own, singular) = operation?.flag(named: flag) {
            return (singular ? own.schema.items?.type : own.schema.type) != "boolean"
        }
        return GlobalOptions.valued.contains(flag) || Invocation.commandValued.contains(flag)
    }
}
