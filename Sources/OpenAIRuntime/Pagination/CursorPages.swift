import Foundation

/// The pages of a cursor-paginated list, fetched one at a time as iteration asks for them.
///
/// Every generated list method whose reply is a cursor page has an auto-paging form that returns
/// one, named after it (`list` → `listPages`):
///
/// ```swift
/// for try await file in client.vectorStores.files.listPages(vectorStoreID: id, limit: 100).items {
///     print(file.id)
/// }
/// let first = try await client.files.listPages(limit: 20).firstPage()
/// let second = try await first.nextPage()  // nil after the last page
/// ```
///
/// ``OpenAIClient/pages(startingAfter:_:)`` makes one around any call that takes a cursor.
///
/// The first page is fetched with `after` = the starting cursor; each next one with the previous
/// page's ``CursorPage/nextPageCursor``. Iteration ends after a page whose `has_more` is false,
/// that is empty, that has no cursor, or whose cursor repeats one met before (a server bug that
/// would otherwise loop for ever); a page whose cursor is the one it was fetched after is the
/// previous page again (a server that ignores `after`) and is not given. Each iteration starts
/// again from the first page.
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

    /// Fetches the first page, which can fetch the ones after it (``ListPage/nextPage()``).
    ///
    /// - Returns: The first page.
    /// - Throws: What the list method throws (``OpenAIError``).
    public func firstPage() async throws -> ListPage<Page> {
        ListPage(page: try await fetch(start), cursor: start, fetch: fetch)
    }

    /// Whether `page`, fetched with `cursor` as `after`, is the page before it again: its own
    /// cursor is the one it was fetched after, which no page that follows that cursor can have.
    static func isRepeat(_ page: Page, fetchedAfter cursor: String?) -> Bool {
        cursor != nil && page.nextPageCursor == cursor
    }

    /// Whether the list ends with `page`, fetched with `cursor` as `after`.
    static func isLast(_ page: Page, fetchedAfter cursor: String?) -> Bool {
        let next = page.nextPageCursor
        return !page.hasMorePages || page.pageItems.isEmpty || next == nil || next == cursor
    }

    /// Makes an iterator that fetches from the first page.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(cursor: start, fetch: fetch) }

    /// Fetches pages on demand.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var cursor: String?
        private var finished = false
        /// The cursors met so far: one met again would cycle.
        private var seen: Set<String> = []
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
            // A server that ignores `after` sends the page it sent before; it is not given again.
            if CursorPages.isRepeat(page, fetchedAfter: cursor) { return nil }
            finished = CursorPages.isLast(page, fetchedAfter: cursor)
            cursor = page.nextPageCursor
            if let cursor, !seen.insert(cursor).inserted { finished = true }
            return page
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
