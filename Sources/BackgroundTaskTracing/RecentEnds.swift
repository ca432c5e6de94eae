@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

/// The last assertions a tracer saw ended, so that an end of an identifier no longer held can be told
/// apart: a double end (of one of these) or an end of an identifier the tracer never saw begin.
///
/// A ring of fixed size, searched only for such ends.
struct RecentEnds {
    private static let capacity = 64
    private var entries: [TracedAssertionEntry?] = Array(repeating: nil, count: capacity)
    private var next = 0

    mutating func add(_ entry: TracedAssertionEntry) {
        entries[next] = entry
        next = (next + 1) % Self.capacity
    }

    /// The most recently ended assertion with this identifier, if it is among the last ones.
    func entry(for rawIdentifier: Int) -> TracedAssertionEntry? {
        var index = next
        for _ in 0..<Self.capacity {
            index = (index + Self.capacity - 1) % Self.capacity
            if let entry = entries[index], entry.rawIdentifier == rawIdentifier { return entry }
        }
        return nil
    }
}
