/// The state of an automatic paging through a list operation's pages: what each page adds, the
/// next cursor, when to stop, and the combined reply.
///
/// It stops at the last page (`has_more` false, or no cursor for the next one), at `maxItems`, at
/// a cursor met before, and at a page that repeats the previous one (a server that ignores the
/// cursor). An absent `has_more` reads as "maybe more": a page with items is followed.
struct PageWalker {
    var page: APIOperation.Page
    var maxItems: Int?
    /// Every item taken, in order.
    private(set) var items: [JSON] = []
    private var first: JSON?
    private var last: JSON?
    /// Whether items remained when the walk stopped.
    private(set) var more = false
    /// Whether `maxItems` cut a page short.
    private(set) var cut = false
    private var cursors: Set<String> = []
    private var previousFirstID: String?

    init(page: APIOperation.Page, maxItems: Int?) {
        self.page = page
        self.maxItems = maxItems
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
        if first == nil { first = value }
        last = value
        let hasMore = value[page.hasMore]?.bool ?? !pageItems.isEmpty
        if let maxItems, items.count + pageItems.count >= maxItems {
            cut = items.count + pageItems.count > maxItems
            more = cut || hasMore
            pageItems = Array(pageItems.prefix(maxItems - items.count))
            items += pageItems
            return (pageItems, nil)
        }
        items += pageItems
        guard hasMore, let next = page.nextCursor(in: value), cursors.insert(next).inserted else {
            more = hasMore
            return (pageItems, nil)
        }
        return (pageItems, next)
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
