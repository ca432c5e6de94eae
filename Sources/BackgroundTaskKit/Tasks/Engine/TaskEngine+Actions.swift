import Foundation

/// Performing actions: never under the lock.
extension TaskEngine {
    func perform(_ action: EngineAction) {
        switch action {
        case .none:
            return
        case .begin(let holder):
            beginOnBackend(holder, hooks: hooks(for: holder))
        case .end(let holder, let identifier, let bySafetyNet):
            endOnBackend(holder, identifier, bySafetyNet: bySafetyNet)
        case .ends(let ends):
            endOnBackend(ends)
        case .awaitSharedBegin(let record, let assertion, let waiters):
            awaitSharedBegin(record, assertion, waiters)
        case .considerRenewal(let assertion):
            considerRenewal(assertion)
        case .wake(let waiters, let count):
            waiters.wake(count)
        case .considerLinger(let assertion):
            considerLinger(assertion)
        // Timers hold the engine strongly (at most one of each, pending at most `linger` or the renewal age): a weak
        // reference adds a side table and sends each retain and release down the slow path (~400 instructions a pair).
        case .scheduleLinger(let delay):
            clock.schedule(delay) { self.lingerElapsed() }
        case .scheduleRenewalCheck(let delay):
            clock.schedule(delay) { self.renewalCheckElapsed() }
        case .many(let actions):
            for action in actions { perform(action) }
        }
    }

    /// Begins `holder`'s assertion, acts on the result, and returns its task's status (`.running` if shared).
    @discardableResult
    func beginOnBackend(_ holder: AssertionHolder, hooks: BackgroundTaskBackendHooks?) -> TaskStatus {
        let handler: @MainActor @Sendable () -> Void = { [holder] in holder.engine.handlerCalled(for: holder) }
        let identifier: BackgroundTaskIdentifier?
        if let callSiteAware = hooks?.callSiteAware {
            identifier = callSiteAware.beginBackgroundTask(
                named: holder.name, callSite: holder.callSite, expirationHandler: handler)
        } else {
            identifier = holder.backend.beginBackgroundTask(named: holder.name, expirationHandler: handler)
        }
        let now = endsNeedTime ? clock.now() : nil
        // Refused in the background: the system has no time left to lend, and none will come (no handler is called).
        // An async body then starts cancelled, so that work which must not run unprotected does not start.
        let refusedInBackground = identifier == nil && holder.backend.backgroundTimeRemaining != nil
        var dropped = DroppedCleanups()
        var status = TaskStatus.running
        let followUp = withLock(at: now) { state -> EngineAction in
            if let shared = holder as? SharedAssertion {
                if refusedInBackground {
                    for user in state[shared].pendingUsers { cancelBodyAsItStarts(user, &state) }
                }
                return sharedBeginReturned(shared, identifier: identifier, now: now ?? 0, dropped: &dropped, &state)
            }
            let record = (holder as! TaskRecord)
            defer { status = state[record].status }
            if refusedInBackground { cancelBodyAsItStarts(record, &state) }
            return taskBeginReturned(record, identifier: identifier, dropped: &dropped, &state)
        }
        withExtendedLifetime(dropped) {}
        perform(followUp)
        return status
    }

    /// Under the lock: `record`'s async body, if it has one that has not started, starts cancelled.
    private func cancelBodyAsItStarts(_ record: TaskRecord, _ state: inout EngineState) {
        guard let body = record.body, state[body].task == nil else { return }
        state[body].cancelOnAttach = true
    }

    /// Under the lock: a per-task assertion's begin returned.
    private func taskBeginReturned(
        _ record: TaskRecord,
        identifier: BackgroundTaskIdentifier?,
        dropped: inout DroppedCleanups,
        _ state: inout EngineState
    ) -> EngineAction {
        guard let identifier else {
            let waiters = state[call: record].finish()
            if state[record].status == .running {
                state[record].status = .notGranted
                dropped.add(state[record].cleanup)
                state[record].cleanup = nil
                finished(record, as: .notGranted, &state)
            }
            state.tasks.remove(record)
            return waiters.map { .wake($0, count: $0.count) } ?? .none
        }
        state[call: record].identifier = identifier
        guard !state[call: record].claimed, state[record].status == .running else {
            // Expired before the identifier was known, or ended meanwhile: end it now, once.
            state[call: record].phase = .ending
            return .end(
                record, identifier, bySafetyNet: !state[call: record].claimed && state[call: record].endedBySafetyNet)
        }
        state[call: record].phase = .held
        recorder?.noteGranted(record)
        return .none
    }

    /// Calls the backend's end, then marks the assertion ended and wakes the handlers waiting for it.
    func endOnBackend(_ holder: AssertionHolder, _ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        callBackendEnd(holder, identifier, bySafetyNet: bySafetyNet)
        let wake = withLock { state in markEnded(holder, &state) }
        if let (waiters, count) = wake { waiters.wake(count) }
    }

    /// Ends several assertions (an expiry's, `endAll()`'s), marks them ended in one lock trip, wakes their waiters.
    func endOnBackend(_ ends: [(AssertionHolder, BackgroundTaskIdentifier)]) {
        for (holder, identifier) in ends { callBackendEnd(holder, identifier, bySafetyNet: false) }
        let wakes = withLock { state in ends.compactMap { markEnded($0.0, &state) } }
        for (waiters, count) in wakes { waiters.wake(count) }
    }

    /// The backend's end for one assertion, through its hooks when it wants to know the safety net's.
    private func callBackendEnd(_ holder: AssertionHolder, _ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        if let callSiteAware = hooks(for: holder)?.callSiteAware {
            callSiteAware.endBackgroundTask(identifier, bySafetyNet: bySafetyNet)
        } else {
            holder.backend.endBackgroundTask(identifier)
        }
    }

    /// Under the lock: `holder`'s end returned; marks it ended, unlists it, returns the waiters to wake.
    private func markEnded(_ holder: AssertionHolder, _ state: inout EngineState) -> (CallWaiters, Int)? {
        // Only a manager's tasks are in its list: a task whose end (or refused begin) was in flight leaves it now.
        if holder.isLinked, state[holder as! TaskRecord].status != .running {
            state.tasks.remove(holder)
        }
        if !state.retiring.isEmpty { state.retiring.removeAll { $0 === holder } }
        return state[call: holder].finish().map { ($0, $0.count) }
    }
}
