import Foundation
import OpenAIRuntime

/// One page of a list operation's reply, read as the runtime's pagination reads pages
/// (``CursorPage``), so that the `openai` tool follows cursors and stops by the SDK's rules
/// (``CursorPages``): after a page whose `has_more` is false, that is empty or has no cursor, at a
/// cursor met before, and without giving a page that repeats the one before it (a server that
/// ignores the cursor). An absent `has_more` reads as "maybe more".
struct JSONPage: CursorPage {
    /// The reply, parsed.
    var reply: JSON
    /// The reply's bytes (`--format raw`).
    var body: Data
    var page: APIOperation.Page

    var pageItems: [JSON] { reply[page.items]?.array ?? [] }
    var hasMorePages: Bool { reply[page.hasMore]?.bool ?? true }
    var nextPageCursor: String? { page.nextCursor(in: reply) }
}

/// What the `openai` tool prints of a paged list: the items taken up to `maxItems`, and the
/// combined reply. The pages come from ``JSONPage`` through the runtime's ``CursorPages``.
///
/// Memory is bounded by `maxItems` (``defaultMaxItems`` when the command line gives none): the
/// items are kept for the combined reply only when `keepsItems` (`--format json`, `pretty`,
/// `yaml`); `jsonl` prints them as their pages arrive and keeps none.
struct PageWalker {
    /// The most items a walk takes when `--max-items` is not given: a server that says `has_more`
    /// forever (or cycles through cursors it makes up) ends here instead of filling the memory.
    static let defaultMaxItems = 10_000

    var page: APIOperation.Page
    var maxItems: Int
    /// Whether the items are kept for ``merged``.
    var keepsItems: Bool
    /// Every item taken, in order (none unless `keepsItems`).
    private(set) var items: [JSON] = []
    /// How many items were taken.
    private(set) var count = 0
    private var first: JSON?
    private var last: JSON?
    /// Whether items remained when the walk stopped.
    private(set) var more = false
    /// Whether `maxItems` cut a page short.
    private(set) var cut = false

    init(page: APIOperation.Page, maxItems: Int?, keepsItems: Bool = true) {
        self.page = page
        self.maxItems = maxItems ?? Self.defaultMaxItems
        self.keepsItems = keepsItems
    }

    /// Whether `maxItems` items have been taken: no further page is wanted.
    var isFull: Bool { count >= maxItems }

    /// Takes a fetched page: the items it adds within `maxItems`.
    mutating func take(_ fetched: JSONPage) -> [JSON] {
        var pageItems = fetched.pageItems
        // Without kept items, the first page is kept for its other members only.
        if first == nil { first = keepsItems ? fetched.reply : fetched.reply.setting(page.items, .array([])) }
        last = fetched.reply
        more = fetched.reply[page.hasMore]?.bool ?? !pageItems.isEmpty
        if count + pageItems.count > maxItems {
            cut = true
            more = true
            pageItems = Array(pageItems.prefix(maxItems - count))
        }
        count += pageItems.count
        if keepsItems { items += pageItems }
        return pageItems
    }

    /// The first page with every item taken in its items member, `has_more` (when the server sends
    /// it) saying whether items remained, and `last_id` the last item's id; `next_page` the last page's, unless `maxItems`
    /// cut it short (then it is left out: it would skip items).
    var merged: JSON? {
        guard var merged = first else { return nil }
        merged = merged.setting(page.items, .array(items))
        if merged[page.hasMore] != nil { merged = merged.setting(page.hasMore, .bool(more)) }
        if merged["last_id"] != nil || last?["last_id"] != nil {
            merged = merged.setting("last_id", items.last?["id"] ?? last?["last_id"] ?? .null)
        }
        if let next = last?["next_page"] {
            merged = merged.setting("next_page", cut ? .null : next)
        }
        return merged
    }
}
