import Foundation

extension TaskEngine {
    /// Begins a task through `backend`; its status says whether it runs. Returns a manager's refusal (cap, time guard).
    func begin(
        name: consuming String?,
        callSite: consuming BackgroundTaskCallSite,
        cleanup: consuming ExpirationCleanup?,
        backend: consuming any BackgroundTaskBackend,
        body: consuming BodyTask? = nil
    ) -> (record: TaskRecord, refusal: BackgroundTaskError?) {
        let hooks = isStandalone ? backend.engineHooks : self.hooks
        let now = isStandalone ? (hooks?.clock ?? .system).now() : clock.now()  // no copy of a manager's clock
        // Standalone: nothing else sees the record before the backend has its handler, so no lock until then.
        let record =
            recorder == nil
            ? TaskRecord(
                engine: self, backend: backend, name: Self.normalize(name), callSite: callSite, beganAt: now,
                cleanup: cleanup, body: body, phase: isStandalone ? .beginning : .none)
            : RecordedTaskRecord(
                engine: self, backend: backend, name: Self.normalize(name), callSite: callSite, beganAt: now,
                cleanup: cleanup, body: body, phase: .none)
        guard !isStandalone else {
            beginOnBackend(record, hooks: hooks)
            return (record, nil)
        }
        let remaining = options.minimumTimeRemaining == nil ? nil : record.backend.backgroundTimeRemaining
        let thread = CallingThread.current
        var dropped: ExpirationCleanup?
        var refusal: BackgroundTaskError?
        let action = withLock(at: now) { state -> EngineAction in
            recorder?.checkStale(in: &state.tasks)
            record.number = state.nextNumber
            state.nextNumber += 1
            recorder?.noteBegin(record)
            refusal = self.refusal(remaining: remaining, running: state.runningCount)
            if let refusal {
                state[record].status = .notGranted
                dropped = state[record].cleanup
                state[record].cleanup = nil
                recorder?.noteRefused(record, error: refusal)
                return .none
            }
            state.tasks.append(record)
            state.runningCount += 1
            recorder?.noteRunning(record)
            if options.coalescing { return join(record, thread: thread, now: now, &state) }
            state[call: record].phase = .beginning
            state[call: record].thread = thread
            return .begin(record)
        }
        withExtendedLifetime(dropped) {}
        switch action {
        case .none:
            break
        case .begin(let holder) where holder === record:
            if beginOnBackend(holder, hooks: hooks) == .notGranted { refusal = .notGranted }
        default:
            // The shared assertion's begin, or the wait for one in flight: the system may refuse it.
            perform(action)
            if withLock({ state in state[record].status }) == .notGranted { refusal = .notGranted }
        }
        if let recorder, clock.isVirtual, let age = recorder.staleTaskAge {
            // On the simulator's clock, check when this task turns stale, as the simulator warns then.
            clock.schedule(age) { [weak self] in self?.checkStaleTasks() }
        }
        return (record, refusal)
    }

    private func refusal(remaining: TimeInterval?, running: Int) -> BackgroundTaskError? {
        if let limit = options.maximumOutstandingTasks, running >= limit {
            return .limitReached(limit: limit)
        }
        if let required = options.minimumTimeRemaining, let remaining, remaining < required {
            return .insufficientTimeRemaining(remaining: remaining, required: required)
        }
        return nil
    }

    /// Ends a task (idempotent, any thread); returns whether it ran. With `detachingBody` (async body returned) its
    /// task is first detached, after any cancel in progress (so it lives while cancelled), in the end's lock trip.
    @discardableResult
    func end(_ record: TaskRecord, bySafetyNet: Bool = false, detachingBody: Bool = false) -> Bool {
        let now = endsNeedTime ? clock.now() : nil
        var dropped: ExpirationCleanup?
        var wasRunning = false
        var ending: BackgroundTaskIdentifier?
        var action = EngineAction.none
        var cancelInProgress: CallWaiters?
        var windingDown: CallWaiters?
        var coalesced = false
        withLock(at: now) { state in
            if detachingBody, let body = record.body {
                state[body].task = nil
                if state[body].cancelling {
                    let waiters = state[body].waiters ?? CallWaiters()
                    waiters.count += 1
                    state[body].waiters = waiters
                    cancelInProgress = waiters
                    return
                }
                windingDown = state[body].windingDown  // an expiry waits for this body to return
                state[body].windingDown = nil
            }
            recorder?.checkStale(in: &state.tasks)
            guard state[record].status == .running else { return }
            wasRunning = true
            state[record].status = .ended
            dropped = state[record].cleanup
            state[record].cleanup = nil
            if state[record].isCoalesced {
                coalesced = true
                finished(record, as: bySafetyNet ? .endedBySafetyNet : .ended, &state)
                action = release(bySafetyNet: bySafetyNet, now: now ?? 0, &state)
                return
            }
            ending = startEnding(record, bySafetyNet: bySafetyNet, &state)
            finished(
                record, as: bySafetyNet ? .endedBySafetyNet : .ended, unlinking: !state[call: record].isInFlight, &state
            )
        }
        if let cancelInProgress {
            cancelInProgress.wait()
            return end(record, bySafetyNet: bySafetyNet, detachingBody: true)  // no cancel in progress now
        }
        withExtendedLifetime(dropped) {}
        windingDown?.wake(1)
        if let ending {
            endOnBackend(record, ending, bySafetyNet: bySafetyNet)
        } else if case .none = action {
        } else {
            perform(action)
        }
        if bySafetyNet, wasRunning, coalesced {
            hooks(for: record)?.callSiteAware?.sharedTaskEndedBySafetyNet(named: record.name, callSite: record.callSite)
        }
        return wasRunning
    }

    /// Ends every running task and assertion, without running cleanups.
    package func endAll() {
        let now = clock.now()
        var dropped = DroppedCleanups()
        let action = withLock(at: now) { state -> EngineAction in
            guard !isStandalone else { return .none }
            var ends: [(AssertionHolder, BackgroundTaskIdentifier)] = []
            var entry = state.tasks.head
            while let current = entry {
                entry = current.next
                let record = (current as! TaskRecord)
                guard state[record].status == .running else { continue }
                state[record].status = .ended
                dropped.add(state[record].cleanup)
                state[record].cleanup = nil
                if !state[record].isCoalesced, let identifier = startEnding(record, bySafetyNet: false, &state) {
                    ends.append((record, identifier))
                }
                finished(record, as: .ended, unlinking: !state[call: record].isInFlight, &state)
            }
            if options.coalescing {
                state.sharedUsers = 0
                if let shared = state.shared, state[call: shared].phase == .held,
                    case .end(let holder, let identifier, _) = retire(shared, &state)
                {
                    ends.append((holder, identifier))
                }
            }
            return ends.isEmpty ? .none : .ends(ends)
        }
        withExtendedLifetime(dropped) {}
        perform(action)
    }

    /// Under the lock: starts a per-task end; returns the identifier to end now, or `nil` (a begin in flight ends it).
    func startEnding(_ holder: AssertionHolder, bySafetyNet: Bool, _ state: inout EngineState)
        -> BackgroundTaskIdentifier?
    {
        switch state[call: holder].phase {
        case .held:
            state[call: holder].phase = .ending
            state[call: holder].thread = .current
            return state[call: holder].identifier
        case .beginning:
            state[call: holder].endedBySafetyNet = bySafetyNet
            return nil
        case .none, .ending, .ended:
            return nil
        }
    }

    /// Whether the task still runs: a face's `deinit` asks, and only then ends it (the end rechecks under the lock).
    func isRunning(_ record: TaskRecord) -> Bool {
        withLock { state in state[record].status == .running }
    }

    /// Where the task stands.
    func status(of record: TaskRecord) -> BackgroundTaskState {
        withLock { state in state[record].status }.state
    }

    /// Seconds since the task began, on its backend's clock.
    func age(of record: TaskRecord) -> TimeInterval {
        clock(for: record).now() - record.beganAt
    }

    /// The running tasks in begin order, with their ages: a manager's `outstandingTasks`.
    package var outstanding: [OutstandingBackgroundTask] {
        let now = clock.now()
        return withLock { state in
            var running: [OutstandingBackgroundTask] = []
            var entry = state.tasks.head
            while let current = entry {
                entry = current.next
                guard state[current as! TaskRecord].status == .running else { continue }
                running.append(
                    OutstandingBackgroundTask(
                        taskNumber: current.number, name: current.name, callSite: current.callSite,
                        age: now - current.beganAt))
            }
            return running
        }
    }

    /// Reports running tasks turned stale since the last check; renews a coalescing manager's shared assertion if old.
    package func checkStaleTasks() {
        let now = clock.now()
        let action = withLock(at: now) { state -> EngineAction in
            recorder?.checkStale(in: &state.tasks)
            checkSharedAssertionAge(now: now, &state)
            return renewIfOld(now: now, &state)
        }
        perform(action)
    }

    /// Under the lock: a manager's running task stopped (its status says how). It leaves the list unless `unlinking` is
    /// `false`: its own begin or end is in flight, which an expiry must still claim (``markEnded`` unlinks it after).
    func finished(_ record: TaskRecord, as ending: TaskEnding, unlinking: Bool = true, _ state: inout EngineState) {
        guard !isStandalone else { return }
        state.runningCount -= 1
        recorder?.noteFinished(record, as: ending)
        if unlinking { state.tasks.remove(record) }
    }

    /// The oldest running task (its call site names a shared assertion raised for all of them).
    func firstRunningTask(_ state: inout EngineState) -> TaskRecord? {
        var entry = state.tasks.head
        while let current = entry {
            let record = (current as! TaskRecord)
            if state[record].status == .running { return record }
            entry = current.next
        }
        return nil
    }
}
