import Foundation

/// The pages of a cursor-paginated list, fetched one at a time as iteration asks for them.
///
/// Make one with ``OpenAIClient/pages(startingAfter:_:)`` around any generated list method:
///
/// ```swift
/// for try await page in client.pages({ after in
///     try await client.vectorStores.files.list(vectorStoreID: id, limit: 100, after: after)
/// }) { print(page.pageItems.count) }
/// ```
///
/// The first page is fetched with `after` = the starting cursor; each next one with the previous
/// page's ``CursorPage/nextPageCursor``. Iteration ends after a page whose `has_more` is false,
/// that is empty, that has no cursor, or whose cursor repeats the previous one (a server bug that
/// would otherwise loop for ever). Each iteration starts again from the first page.
public struct CursorPages<Page: CursorPage>: AsyncSequence, Sendable {
    public typealias Element = Page

    private let start: String?
    private let fetch: @Sendable (_ after: String?) async throws -> Page

    init(start: String?, fetch: @escaping @Sendable (_ after: String?) async throws -> Page) {
        self.start = start
        self.fetch = fetch
    }

    /// The items of every page, in order.
    public var items: CursorItems<Page> { CursorItems(pages: self) }

    /// Makes an iterator that fetches from the first page.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(cursor: start, fetch: fetch) }

    /// Fetches pages on demand.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var cursor: String?
        private var finished = false
        private let fetch: @Sendable (_ after: String?) async throws -> Page

        init(cursor: String?, fetch: @escaping @Sendable (_ after: String?) async throws -> Page) {
            self.cursor = cursor
            self.fetch = fetch
        }

        /// Fetches the next page.
        ///
        /// - Returns: The page, or `nil` after the last one.
        /// - Throws: What the list method throws (``OpenAIError``).
        public mutating func next() async throws -> Page? {
            guard !finished else { return nil }
            let page = try await fetch(cursor)
            let next = page.nextPageCursor
            if !page.hasMorePages || page.pageItems.isEmpty || next == nil || next == cursor {
                finished = true
            }
            cursor = next
            return page
        }
    }
}

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

extension OpenAIClient {
    /// Iterates the pages of a cursor-paginated list.
    ///
    /// - Parameters:
    ///   - startingAfter: The cursor of the first request (`after`), `nil` for the beginning.
    ///   - fetch: Calls a generated list method with `after` set to the given cursor.
    /// - Returns: The pages, fetched as iteration asks for them.
    public func pages<Page: CursorPage>(
        startingAfter: String? = nil, _ fetch: @escaping @Sendable (_ after: String?) async throws -> Page
    ) -> CursorPages<Page> {
        CursorPages(start: startingAfter, fetch: fetch)
    }

    /// Iterates the items of every page of a cursor-paginated list.
    ///
    /// ```swift
    /// for try await assistant in client.items({ after in try await client.assistants.list(after: after) }) {
    ///     print(assistant.id)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - startingAfter: The cursor of the first request (`after`), `nil` for the beginning.
    ///   - fetch: Calls a generated list method with `after` set to the given cursor.
    /// - Returns: The items, pages fetched as iteration asks for them.
    public func items<Page: CursorPage>(
        startingAfter: String? = nil, _ fetch: @escaping @Sendable (_ after: String?) async throws -> Page
    ) -> CursorItems<Page> {
        CursorPages(start: startingAfter, fetch: fetch).items
    }
}
