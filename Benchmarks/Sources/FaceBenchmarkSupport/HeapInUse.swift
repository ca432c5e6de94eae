import HeapStatistics

/// The bytes the allocator has handed out and not had back: what stays in memory.
///
/// Needs no interposer: glibc's `mallinfo2` (small blocks in use plus memory-mapped ones) on Linux,
/// the default zone's statistics on Apple platforms (a small C target reads them). Used to see whether
/// a long run keeps anything per operation: a million begin+end pairs should leave the heap where it
/// was.
public enum HeapInUse {
    /// The bytes in use now.
    public static func bytes() -> Int {
        Int(heap_statistics_bytes_in_use())
    }
}
