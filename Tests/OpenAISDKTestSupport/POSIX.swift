import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX spellings that differ between Glibc and Darwin, in one place for the tests: Glibc
/// imports `SOCK_STREAM` and `RUSAGE_*` as enums, Darwin as integers, and a type with a `close()`
/// method must name the C function's module.
public enum POSIX {
    /// `SOCK_STREAM` as `socket(2)` takes it.
    public static var streamSocket: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// `close(2)`.
    ///
    /// - Returns: 0, or -1 with `errno` set.
    @discardableResult
    public static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    /// `getrusage(2)` of the terminated and waited-for children of this process.
    ///
    /// - Returns: Their summed usage (times, peak resident size: see ``childrenPeakResidentKiB()``).
    public static func childrenUsage() -> rusage {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return usage
    }

    /// The peak resident set size of the children from ``childrenUsage()``, in KiB (Linux reports
    /// `ru_maxrss` in KiB, Darwin in bytes).
    public static func childrenPeakResidentKiB() -> Int {
        #if canImport(Darwin)
            Int(childrenUsage().ru_maxrss) / 1024
        #else
            Int(childrenUsage().ru_maxrss)
        #endif
    }
}
