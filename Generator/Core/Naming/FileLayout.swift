/// How an area's top-level types (or a root resource's resources) are split into files: by
/// content, so that adding or removing a type changes the file that holds it and no other
/// (unless it is an anchor, which splits or joins files, or it takes its file over the cap, which
/// splits that file alone).
///
/// An area that fits the line cap is one file, `<Area>.swift`. A larger one is cut, in the order
/// of the units (types by name, resources by path), before *anchor* types: those whose name
/// hashes (``hash(_:)``) to a multiple of ``anchorSpacing``, where the file so far has at least half
/// the cap. A piece still over the cap is cut again inside itself before the anchors of
/// half the spacing, and so on down to every type: where a file ends depends only on the names and
/// sizes of the types in it. The first file is `<Area>.swift`, each later one is named for the area
/// and its first type, `<Area>+<FirstType>.swift`. (Counting files, `Shared1…Shared9`, renumbered every later file;
/// cutting where the cap is reached moved every later file's types along.) That is the layout of a
/// first generation; after it, ``files(area:units:lineCap:previous:)`` keeps each type in the file
/// the previous generation gave it.
enum FileLayout {
    /// One top-level type (or a nested type of a type larger than the cap, `Outer.Nested`, in an
    /// extension of it): its Swift name and its rendered line count.
    struct Unit {
        var name: String
        var lines: Int
    }

    /// The fewest lines a type a reader names (``TopLevelDeclaration/hasOwnFile``) needs to get a
    /// file of its own; a smaller one shares its area's files like the other types (the type index
    /// names its file). Files cost build time: a debug build compiles at most 25 files per
    /// compiler process (the Swift driver's batch size), and every process parses and looks up
    /// the whole module. A file for each of the 214 named types gave the `OpenAI` module 275
    /// files and a clean debug build of 112.6 s against 92.2 s with 86 files
    /// (`Scripts/bench/bench-generate.sh`); with this floor it has 111 files and builds in the same time
    /// as with 86 (clean debug builds taken in turn: 97.5 and 92.7 s against 94.8 and 96.3 s).
    static let ownFileMinimumLines = 300

    /// On average one type in this many starts a file at the first level (a power of two, halved at
    /// each further level).
    static let anchorSpacing: UInt64 = 128

    /// The files of an area whose `units` are in order: each file's name (without `.swift`)
    /// and the range of units it holds, in order.
    static func files(area: String, units: [Unit], lineCap: Int) -> [(name: String, units: Range<Int>)] {
        let total = units.reduce(0) { $0 + $1.lines + 1 }
        guard total > lineCap, units.count > 1 else { return [(area, units.indices)] }
        return cut(units, units.indices, spacing: anchorSpacing, lineCap: lineCap).map { range in
            // The first file keeps the area's name, which a type sorted before all others would
            // change; the others start at an anchor. A nested type split out of a large one
            // (`Outer.Nested`) names its file `Area+Outer+Nested`.
            range.lowerBound == 0
                ? (area, range)
                : ("\(area)+\(units[range.lowerBound].name.replacingOccurrences(of: ".", with: "+"))", range)
        }
    }

    /// The files of an area laid out as the previous generation laid them (`previous`: unit name →
    /// the name of the file that held it, as ``PreviousLayout/files`` gives), so that a spec update
    /// moves no type to another file: each unit stays in its file, a new unit joins the file of the
    /// unit before it (the first file when it comes first), a file that grows over the cap is cut
    /// inside itself as ``files(area:units:lineCap:)`` cuts an area (its first piece keeps its
    /// name, a later one is named for the first of its types that names no other file), and files
    /// are never joined. A new unit that comes before every unit with a previous file joins the
    /// first of those files. Falls back to ``files(area:units:lineCap:)`` when no unit has a
    /// previous file of this area (a new area, a first generation), and when the area holds the
    /// nested types of a type larger than the cap (`Outer.Nested`: the type index does not record
    /// where they went, so they are laid out from the spec alone, the same in every generation).
    static func files(
        area: String, units: [Unit], lineCap: Int, previous: [String: String]
    ) -> [(name: String, units: Range<Int>)] {
        // Only names of this area's shared files count: `Area` or `Area+…`, not a type's own file.
        func previousFile(_ unit: Unit) -> String? {
            guard let file = previous[unit.name], file != unit.name, file == area || file.hasPrefix(area + "+")
            else { return nil }
            return file
        }
        guard !units.contains(where: { $0.name.contains(".") }),
            let firstKnown = units.firstIndex(where: { previousFile($0) != nil })
        else {
            return files(area: area, units: units, lineCap: lineCap)
        }
        var runs: [(name: String, units: Range<Int>)] = []
        var used: Set<String> = []
        var current = previousFile(units[firstKnown])!
        for index in units.indices {
            // A file seen before, after another (its types no longer contiguous), is not reopened.
            if let file = previousFile(units[index]), file != current, !used.contains(file) { current = file }
            if let last = runs.last, last.name == current {
                runs[runs.count - 1].units = last.units.lowerBound..<(index + 1)
            } else {
                used.insert(current)
                runs.append((current, index..<(index + 1)))
            }
        }
        // The name of a piece cut from a file is its first type's, unless another file has it
        // (a file that kept its name after its first type left, which now comes back): then the
        // next type's, and so on.
        var taken = Set(runs.map(\.name))
        return runs.flatMap { run -> [(name: String, units: Range<Int>)] in
            let lines = units[run.units].reduce(0) { $0 + $1.lines + 1 }
            guard lines > lineCap, run.units.count > 1 else { return [run] }
            return cut(units, run.units, spacing: anchorSpacing, lineCap: lineCap).map { piece in
                guard piece.lowerBound != run.units.lowerBound else { return (run.name, piece) }
                let candidates = units[piece].map { "\(area)+\($0.name)" }
                let name =
                    candidates.first { !taken.contains($0) }
                    ?? (2...).lazy.map { "\(candidates[0])\($0)" }.first { !taken.contains($0) }!
                taken.insert(name)
                return (name, piece)
            }
        }
    }

    /// `range` cut before the anchors of `spacing` (where the piece so far has half the cap), and each piece still over the cap cut again at half the spacing; at spacing 1, where
    /// the cap is reached.
    private static func cut(_ units: [Unit], _ range: Range<Int>, spacing: UInt64, lineCap: Int) -> [Range<Int>] {
        func lines(_ piece: Range<Int>) -> Int { units[piece].reduce(0) { $0 + $1.lines + 1 } }
        guard range.count > 1, lines(range) > lineCap else { return [range] }
        var starts = [range.lowerBound]
        var filled = 0
        for index in range {
            // Past the last level, a piece is packed up to the cap (a type larger than it alone).
            let cuts =
                spacing > 1
                ? hash(units[index].name) % spacing == 0 && filled >= lineCap / 2
                : filled + units[index].lines > lineCap
            if index > range.lowerBound && cuts {
                starts.append(index)
                filled = 0
            }
            filled += units[index].lines + 1
        }
        let pieces = starts.indices.map { position in
            starts[position]..<(position + 1 < starts.count ? starts[position + 1] : range.upperBound)
        }
        guard spacing > 1 else { return pieces }
        return pieces.flatMap { piece in
            lines(piece) > lineCap ? cut(units, piece, spacing: spacing / 2, lineCap: lineCap) : [piece]
        }
    }

    /// Whether `name` starts a file when the file before it is long enough (at the first level).
    static func isAnchor(_ name: String) -> Bool {
        hash(name) % anchorSpacing == 0
    }

    /// A fixed hash of the name (FNV-1a, 64 bits), so where files start does not depend on the
    /// other types.
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
