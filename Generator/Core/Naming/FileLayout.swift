/// How an area's top-level types (or a root resource's resources) are split into files: by
/// content, so that adding or removing a type changes the file that holds it, not the names of
/// the others (unless it pushes its file over the cap: then the files up to the next anchor start
/// one type later).
///
/// An area that fits the line cap is one file, `<Area>.swift`. A larger one is cut, in the order
/// of the units (types by name, resources by path), before *anchor* types (those whose name hashes to a multiple of
/// ``anchorSpacing``) once the file has at least a quarter of the cap, and before any type that
/// would take it over the cap; each file is named for the area and its first type,
/// `<Area>+<FirstType>.swift`. A new type joins the file of the type before it; only a new
/// anchor splits a file. (Counting files, `Shared1…Shared9`, renumbered every later file.)
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
    /// the whole module, so the module's clean debug build grows with its file count (a file for
    /// each of the 214 types with 275 files instead of 86: 112.6 s against 92.2 s,
    /// `Scripts/bench-generate.sh`). With this floor the `OpenAI` module keeps about 100 files.
    static let ownFileMinimumLines = 300

    /// On average one type in this many starts a file (about 1,400 lines of generated code).
    static let anchorSpacing: UInt64 = 20

    /// The files of an area whose `units` are in order: each file's name (without `.swift`)
    /// and the range of units it holds, in order.
    static func files(area: String, units: [Unit], lineCap: Int) -> [(name: String, units: Range<Int>)] {
        let total = units.reduce(0) { $0 + $1.lines + 1 }
        guard total > lineCap, units.count > 1 else { return [(area, units.indices)] }
        var starts = [0]
        var lines = 0
        for (index, unit) in units.enumerated() {
            if index > 0
                && ((isAnchor(unit.name) && lines >= lineCap / 4) || lines + unit.lines > lineCap)
            {
                starts.append(index)
                lines = 0
            }
            lines += unit.lines + 1
        }
        return starts.indices.map { position in
            let start = starts[position]
            let end = position + 1 < starts.count ? starts[position + 1] : units.count
            // A nested type split out of a large one (`Outer.Nested`) names its file `Area+Outer+Nested`.
            return ("\(area)+\(units[start].name.replacingOccurrences(of: ".", with: "+"))", start..<end)
        }
    }

    /// Whether `name` starts a file when the file before it is long enough: a fixed hash of the
    /// name (FNV-1a, 64 bits), so the choice does not depend on the other types.
    static func isAnchor(_ name: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash % anchorSpacing == 0
    }
}
