import Foundation

/// The items of every page of a cursor-paginated list, in order (see ``CursorPages``).
public struct CursorItems<Page: CursorPage>: AsyncSequence, Sendable {
    public typealias Element = Page.Item

    private let pages: CursorPages<Page>

    init(pages: CursorPages<Page>) { self.pages = pages }

    /// Makes an iterator that fetches from the first page.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pages: pages.makeAsyncIterator()) }

    /// Yields the items of one page, then fetches the next.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var pages: CursorPages<Page>.AsyncIterator
        private var buffer: [Page.Item] = []
        private var index = 0

        init(pages: CursorPages<Page>.AsyncIterator) { self.pages = pages }

        /// Returns the next item, fetching the next page when this one is used up.
        ///
        /// - Returns: The item, or `nil` after the last one.
        /// - Throws: What the list method throws (``OpenAIError``).
        public mutating func next() async throws -> Page.Item? {
            while index == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = page.pageItems
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}
