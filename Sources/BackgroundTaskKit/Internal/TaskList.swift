/// An owner's tasks in begin order, linked through the entries (no copy, no hashing): a manager's engine, a diagnosing
/// backend and a tracer each keep one under their lock (an engine: running tasks and those whose begin or end is in
/// flight). A walk in steps (the ledger's stale check) keeps its place in ``cursor``, which unlinking keeps valid.
package struct TaskList {
    package init() {}

    /// The first entry; the list owns its entries through `head` and each entry's `next`.
    package private(set) var head: TaskListEntry?
    /// Owned through the chain from `head`. `tail`, `cursor` and the entries' `previous` are unchecked: checked
    /// `unowned` cost a manager's begin+end 409 instructions (callgrind, 2026-11-25).
    private unowned(unsafe) var tail: TaskListEntry?
    /// Where a walk in steps stopped (the last entry it has passed); `nil`: start at the head.
    package unowned(unsafe) var cursor: TaskListEntry?

    /// Links `entry` at the end.
    package mutating func append(_ entry: TaskListEntry) {
        entry.isLinked = true
        entry.previous = tail
        entry.next = nil
        if let tail { tail.next = entry } else { head = entry }
        tail = entry
    }

    /// Takes `entry` out of the list; does nothing if it is not in it.
    package mutating func remove(_ entry: TaskListEntry) {
        guard entry.isLinked else { return }
        entry.isLinked = false
        if cursor === entry { cursor = entry.previous }
        let next = entry.next
        if let previous = entry.previous { previous.next = next } else { head = next }
        if let next { next.previous = entry.previous } else { tail = entry.previous }
        entry.next = nil
        entry.previous = nil
    }
}
