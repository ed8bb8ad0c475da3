/// The choices a Chat Completions or Completions stream has mentioned, and which of them have a
/// `finish_reason`.
package struct ChoiceCompletion: Sendable {
    private(set) var seen: Set<Int> = []
    private(set) var finished: Set<Int> = []

    /// Records that choice `index` appeared, with a `finish_reason` when `finished`.
    package mutating func record(index: Int, finished isFinished: Bool) {
        seen.insert(index)
        if isFinished { finished.insert(index) }
    }

    /// Choices seen without a `finish_reason`, in ascending order.
    var unfinished: [Int] { seen.subtracting(finished).sorted() }

    /// Whether at least one choice appeared and every one has finished.
    var isComplete: Bool { !seen.isEmpty && finished.isSuperset(of: seen) }
}
