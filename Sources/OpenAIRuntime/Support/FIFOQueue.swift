/// A first-in, first-out queue on an array: taking from the front moves an index, and the taken
/// elements are dropped once they are at least half of the array (and 64 or more), so each
/// element costs O(1) amortized. Not synchronized: its owner's lock guards it.
package struct FIFOQueue<Element> {
    private var elements: [Element] = []
    /// The index of the next element to take.
    private var head = 0

    package init() {}

    /// How many elements wait.
    package var count: Int { elements.count - head }

    package var isEmpty: Bool { head == elements.count }

    package mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Takes the first element; `nil` when the queue is empty.
    package mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Drops every element and the array's storage.
    package mutating func removeAll() {
        elements = []
        head = 0
    }
}
