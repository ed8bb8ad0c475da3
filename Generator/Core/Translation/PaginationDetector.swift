/// Marks list replies (`data` array plus `has_more`) as cursor pages, with where the next `after`
/// cursor comes from: `last_id` when the reply has it, else `next`, else the last item's `id`.
enum PaginationDetector {
    static func annotate(_ declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        var structs: [String: StructDecl] = [:]
        for top in declarations where top.resourceType == nil {
            if case .structure(let decl) = top.declaration { structs[decl.name] = decl }
        }
        /// Whether the type has a stored, required, non-null string `id`.
        func hasID(_ type: TypeRef) -> Bool {
            guard case .named(let name) = type, let decl = structs[name] else { return false }
            return decl.properties.contains {
                $0.wireName == "id" && $0.constant == nil && $0.type == .string && !$0.isOptional && !$0.boxed
            }
        }
        return declarations.map { top in
            guard top.resourceType == nil, case .structure(var decl) = top.declaration else { return top }
            let stored = decl.properties.filter { $0.constant == nil && !$0.boxed && !$0.documentation.deprecated }
            guard let data = stored.first(where: { $0.wireName == "data" }), case .array(let item) = data.type,
                !data.isOptional,
                let more = stored.first(where: { $0.wireName == "has_more" }), more.type == .bool
            else { return top }
            let last = stored.first { $0.wireName == "last_id" && $0.type == .string }
            let next = stored.first { ($0.wireName == "next" || $0.wireName == "next_page") && $0.type == .string }
            var cursor: [PageInfo.CursorSource] = []
            if let last { cursor.append(.member(last.name)) }
            if let next { cursor.append(.member(next.name)) }
            if hasID(item) { cursor.append(.lastItemID(data: data.name)) }
            // A required `last_id` is always there: nothing after it is ever read.
            if let last, !last.isOptional { cursor = [.member(last.name)] }
            decl.page = PageInfo(
                itemType: item, items: data.name, hasMore: more.name, hasMoreIsOptional: more.isOptional,
                nextCursor: cursor, cursorParameter: last == nil && next?.wireName == "next_page" ? "page" : "after")
            var copy = top
            copy.declaration = .structure(decl)
            return copy
        }
    }

    /// Marks operations whose reply is a cursor page, that take no body and take the cursor in the
    /// page's string query parameter (``PageInfo/cursorParameter``): they get an auto-paging method.
    static func annotate(_ operations: [OperationDecl], declarations: [TopLevelDeclaration]) -> [OperationDecl] {
        var pages: [String: PageInfo] = [:]
        for top in declarations where top.resourceType == nil {
            if case .structure(let decl) = top.declaration, let page = decl.page { pages[decl.name] = page }
        }
        return operations.map { operation in
            guard case .json(.named(let name)) = operation.response, let page = pages[name], operation.bodies.isEmpty
            else { return operation }
            guard
                let cursor = operation.parameters.first(where: {
                    $0.wireName == page.cursorParameter && $0.location == .query && $0.type == .string
                })
            else { return operation }
            var copy = operation
            copy.pageCursor = cursor
            return copy
        }
    }
}
