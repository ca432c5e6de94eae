#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Reads the allocation counters of ordo-one's malloc interposer, when the process has it.
///
/// The `FaceCosts` suite links the interposer (through ordo-one's `Benchmark`); `FaceCost` does not, so
/// that callgrind counts the instructions of the real allocator, and counts allocations only when the
/// interposer is preloaded (`LD_PRELOAD=.build/release/libMallocInterposerSwift.so`). The counters are
/// looked up by name at run time, so either binary works with or without it.
///
/// ```swift
/// MallocCounter.startCounting()
/// let before = MallocCounter.snapshot()
/// work()
/// let allocated = MallocCounter.snapshot()! - before!  // .mallocs, .liveBytes, …
/// ```
public enum MallocCounter {
    /// Allocation totals since the counters were last reset.
    public struct Snapshot: Sendable {
        /// Calls to `malloc`, `calloc`, `realloc`, `posix_memalign` and the like.
        public var mallocs: Int
        /// Calls to `free`.
        public var frees: Int
        /// Bytes those calls asked for.
        public var allocatedBytes: Int
        /// Bytes given back.
        public var freedBytes: Int

        /// Bytes still allocated: what stays in memory.
        public var liveBytes: Int { allocatedBytes - freedBytes }

        /// What was allocated and freed between `earlier` and `later`.
        public static func - (later: Snapshot, earlier: Snapshot) -> Snapshot {
            Snapshot(
                mallocs: later.mallocs - earlier.mallocs,
                frees: later.frees - earlier.frees,
                allocatedBytes: later.allocatedBytes - earlier.allocatedBytes,
                freedBytes: later.freedBytes - earlier.freedBytes
            )
        }
    }

    private typealias Switch = @convention(c) () -> Void
    private typealias Statistics =
        @convention(c) (
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?
        ) -> Void

    /// The interposer's C entry points, found once; `nil` when it is not in the process.
    private struct EntryPoints: @unchecked Sendable {  // C function pointers: immutable, no state
        let enable: Switch
        let statistics: Statistics

        static let found: EntryPoints? = {
            #if canImport(Darwin)
                let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
            #else
                let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            #endif
            guard let enable = dlsym(everywhere, "malloc_interposer_enable"),
                let statistics = dlsym(everywhere, "malloc_interposer_get_stats")
            else { return nil }
            return EntryPoints(
                enable: unsafeBitCast(enable, to: Switch.self),
                statistics: unsafeBitCast(statistics, to: Statistics.self)
            )
        }()
    }

    /// Whether the interposer is in the process.
    public static var isAvailable: Bool { EntryPoints.found != nil }

    /// Turns counting on, for every thread, until the process ends (or ordo-one turns it off).
    public static func startCounting() {
        EntryPoints.found?.enable()
    }

    /// The totals now, or `nil` without the interposer. Allocates nothing.
    public static func snapshot() -> Snapshot? {
        guard let entryPoints = EntryPoints.found else { return nil }
        var counts = (mallocs: Int64(0), bytes: Int64(0), small: Int64(0), large: Int64(0))
        var frees = (count: Int64(0), bytes: Int64(0))
        entryPoints.statistics(
            &counts.mallocs, &counts.bytes, &counts.small, &counts.large, &frees.count, &frees.bytes
        )
        return Snapshot(
            mallocs: Int(counts.mallocs),
            frees: Int(frees.count),
            allocatedBytes: Int(counts.bytes),
            freedBytes: Int(frees.bytes)
        )
    }
}
