import Dispatch

extension FaceRig {
    /// Times `pairs` begin+end pairs while `held` tasks of this face are outstanding.
    ///
    /// - Parameters:
    ///   - pairs: The number of pairs to time.
    ///   - held: The number of tasks held around them (not timed).
    /// - Returns: The time of the pairs alone.
    public func timePairs(_ pairs: Int, holding held: Int) async -> Duration {
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        if face.isAsync {
            await holdingAsync(held) {
                let start = clock.now
                await runPairsAsync(pairs)
                elapsed = clock.now - start
            }
        } else {
            holding(held) { elapsed = clock.measure { runPairs(pairs) } }
        }
        return elapsed
    }

    /// Counts what `pairs` begin+end pairs allocate while `held` tasks are outstanding.
    ///
    /// - Parameters:
    ///   - pairs: The number of pairs.
    ///   - held: The number of tasks held around them (not counted).
    /// - Returns: The allocations of the pairs, or `nil` without the malloc interposer.
    public func pairAllocations(_ pairs: Int, holding held: Int) async -> MallocCounter.Snapshot? {
        guard MallocCounter.isAvailable else { return nil }
        MallocCounter.startCounting()
        var before: MallocCounter.Snapshot?
        var after: MallocCounter.Snapshot?
        if face.isAsync {
            await holdingAsync(held) {
                before = MallocCounter.snapshot()
                await runPairsAsync(pairs)
                after = MallocCounter.snapshot()
            }
        } else {
            holding(held) {
                before = MallocCounter.snapshot()
                runPairs(pairs)
                after = MallocCounter.snapshot()
            }
        }
        guard let before, let after else { return nil }
        return after - before
    }

    /// Counts what holding `count` tasks of this face allocates: from just before the first begin to
    /// the moment all of them are outstanding (the storage the caller keeps them in is not counted).
    ///
    /// - Parameter count: The number of tasks to hold.
    /// - Returns: The allocations of all `count` tasks, or `nil` without the malloc interposer.
    public func heldAllocations(_ count: Int) async -> MallocCounter.Snapshot? {
        guard MallocCounter.isAvailable else { return nil }
        MallocCounter.startCounting()
        var before: MallocCounter.Snapshot?
        var after: MallocCounter.Snapshot?
        let start = { before = MallocCounter.snapshot() }
        let end = { after = MallocCounter.snapshot() }
        if face.isAsync {
            await holdingAsync(count, beforeFirstBegin: start, end)
        } else {
            holding(count, beforeFirstBegin: start, end)
        }
        guard let before, let after else { return nil }
        return after - before
    }

    /// Times `pairsPerThread` begin+end pairs on each of `threads` threads at once, on this one rig
    /// (one manager, for the manager faces), while `held` tasks are outstanding. Not for `.withAsync`.
    ///
    /// - Parameters:
    ///   - threads: The number of threads hammering the rig.
    ///   - pairsPerThread: The pairs each thread runs.
    ///   - held: The number of tasks held around them (not timed).
    /// - Returns: The time from the start until the last thread is done.
    public func timeConcurrentPairs(threads: Int, pairsPerThread: Int, holding held: Int) -> Duration {
        var elapsed = Duration.zero
        holding(held) {
            elapsed = ContinuousClock().measure {
                DispatchQueue.concurrentPerform(iterations: threads) { _ in runPairs(pairsPerThread) }
            }
        }
        return elapsed
    }
}
