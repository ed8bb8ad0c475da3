/// A page of a cursor-paginated list (the spec's `List…Response` schemas: `data`, `has_more`,
/// `first_id`/`last_id`). Generated list reply types conform; the client's auto-pagination
/// iterates pages and items through it.
public protocol CursorPage: Sendable {
    /// The element type of `data`.
    associatedtype Item: Sendable
    /// The items of this page, in the order the API returned them.
    var pageItems: [Item] { get }
    /// Whether the API may have more items after this page: `has_more`, or `true` when the reply
    /// left it out (the next request tells: an empty page ends the list).
    var hasMorePages: Bool { get }
    /// The cursor to pass as `after` for the next page: `last_id` when the page has one, else
    /// the last item's `id`; `nil` when it cannot be told.
    var nextPageCursor: String? { get }
}
