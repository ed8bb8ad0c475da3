/// The state of an automatic paging through a list operation's pages: what each page adds, the
/// next cursor, when to stop, and the combined reply.
///
/// It stops at the last page (`has_more` false, or no cursor for the next one), at `maxItems`, at
/// a cursor met before, and at a page that repeats the previous one (a server that ignores the
/// cursor). An absent `has_more` reads as "maybe more": a page with items is followed.
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
    private var cursors: Set<String> = []
    private var previousFirstID: String?

    init(page: APIOperation.Page, maxItems: Int?, keepsItems: Bool = true) {
        self.page = page
        self.maxItems = maxItems ?? Self.defaultMaxItems
        self.keepsItems = keepsItems
    }

    /// Takes the page fetched with `cursor` (`nil`: the first): the items it adds, and the cursor
    /// of the next page to fetch, or `nil` to stop.
    mutating func take(_ value: JSON, cursor: String?) -> (items: [JSON], next: String?) {
        var pageItems = value[page.items]?.array ?? []
        let firstID = pageItems.first?["id"]?.string
        if cursor != nil, let firstID, firstID == previousFirstID {
            // The same page again: the server ignored the cursor.
            more = false
            return ([], nil)
        }
        previousFirstID = firstID
        // Without kept items, the first page is kept for its other members only.
        if first == nil { first = keepsItems ? value : value.setting(page.items, .array([])) }
        last = value
        let hasMore = value[page.hasMore]?.bool ?? !pageItems.isEmpty
        if count + pageItems.count >= maxItems {
            cut = count + pageItems.count > maxItems
            more = cut || hasMore
            pageItems = Array(pageItems.prefix(maxItems - count))
            take(pageItems)
            return (pageItems, nil)
        }
        take(pageItems)
        guard hasMore, let next = page.nextCursor(in: value), cursors.insert(next).inserted else {
            more = hasMore
            return (pageItems, nil)
        }
        return (pageItems, next)
    }

    private mutating func take(_ pageItems: [JSON]) {
        count += pageItems.count
        if keepsItems { items += pageItems }
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
