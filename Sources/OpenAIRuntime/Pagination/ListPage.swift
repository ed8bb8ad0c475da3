import Foundation

/// One fetched page of a cursor-paginated list, which can fetch the page after it (as the
/// official SDKs' `getNextPage()`). ``CursorPages/firstPage()`` gives the first.
public struct ListPage<Page: CursorPage>: Sendable {
    /// The decoded reply: the generated list type, e.g. `ListFilesResponse`.
    public let page: Page
    private let cursor: String?
    private let fetch: @Sendable (_ after: String?) async throws -> Page

    init(page: Page, cursor: String?, fetch: @escaping @Sendable (_ after: String?) async throws -> Page) {
        self.page = page
        self.cursor = cursor
        self.fetch = fetch
    }

    /// The items of this page (`data`), in the order the API returned them.
    public var items: [Page.Item] { page.pageItems }

    /// Whether a next page is to be fetched: `false` after a page whose `has_more` is false, that
    /// is empty, that has no cursor, or whose cursor repeats the previous one.
    public var hasNextPage: Bool { !CursorPages<Page>.isLast(page, fetchedAfter: cursor) }

    /// Fetches the page after this one, with this page's ``CursorPage/nextPageCursor`` as `after`.
    ///
    /// - Returns: The next page, or `nil` when ``hasNextPage`` is `false` (nothing is sent) or
    ///   the server sent this page again (it ignores `after`).
    /// - Throws: What the list method throws (``OpenAIError``).
    public func nextPage() async throws -> ListPage<Page>? {
        guard hasNextPage else { return nil }
        let next = page.nextPageCursor
        let fetched = try await fetch(next)
        if CursorPages<Page>.isRepeat(fetched, fetchedAfter: next) { return nil }
        return ListPage(page: fetched, cursor: next, fetch: fetch)
    }
}
