import Foundation
import OpenAIRuntime

/// A progress bar on standard error (`upload [=====     ] 50% 1.2 MB / 2.4 MB`), redrawn at most ten
/// times a second, drawn only when standard error is a terminal.
///
final class ProgressBar: Sendable {
    private let terminal: Terminal
    private let label: String
    /// When the bar was last drawn, and whether it ever was.
    private let state = Locked((lastDraw: ContinuousClock.now - .seconds(1), drawn: false))

    init(terminal: Terminal, label: String) {
        self.terminal = terminal
        self.label = label
    }

    /// Redraws the bar for `done` of `total` bytes (no total: the bytes alone).
    func update(_ done: Int64, _ total: Int64?) {
        guard terminal.errorIsTerminal else { return }
        let now = ContinuousClock.now
        let finished = total.map { done >= $0 } ?? false
        let draws = state.withLock { state in
            guard finished || now - state.lastDraw >= .milliseconds(100) else { return false }
            state = (now, true)
            return true
        }
        guard draws else { return }
        terminal.errorRaw(Self.text(label: label, done: done, total: total))
    }

    /// The bar's line: a carriage return, the label, the bar and the figures, the rest of the line erased.
    static func text(label: String, done: Int64, total: Int64?) -> String {
        let width = 30
        guard let total, total > 0 else { return "\r\(label) \(bytes(done))\u{1B}[K" }
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        return "\r\(label) [\(bar)] \(Int(fraction * 100))% \(bytes(done)) / \(bytes(total))\u{1B}[K"
    }

    /// Ends the bar's line, when one was drawn.
    func end() {
        if state.withLock({ $0.drawn }) { terminal.errorRaw("\n") }
    }

    /// `1.2 MB`, `512 B`: decimal units.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
