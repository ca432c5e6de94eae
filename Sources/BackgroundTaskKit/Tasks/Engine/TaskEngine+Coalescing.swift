import Foundation

/// A coalescing manager's shared assertion: joined by every task, begun once per burst, lingering briefly after the
/// last task, handed over to a fresh one before it grows old. All run under the lock, returning what to do after it.
extension TaskEngine {
    /// A task joins the shared assertion: at once if held; if another thread is beginning it, once that begin returns
    /// (one system begin per burst, and each task learns at once whether it runs); else by beginning one.
    func join(_ record: TaskRecord, thread: CallingThread, now: TimeInterval, _ state: inout EngineState)
        -> EngineAction
    {
        state[record].isCoalesced = true
        state.sharedUsers += 1
        if options.holdsOnlyInBackground, state.inBackground == false, state.shared == nil {
            recorder?.noteGranted(record)  // it runs at once; the assertion comes when the app leaves
            return .none
        }
        if let shared = state.shared {
            switch state[call: shared].phase {
            case .held:
                state[shared].idleSince = nil
                state[call: shared].endedBySafetyNet = false
                recorder?.noteGranted(record)
                return renewIfOld(now: now, &state)
            case .beginning:
                state[shared].pendingUsers.append(record)
                guard !state[call: shared].thread.isSame(as: thread) else { return .none }
                let waiters = state[shared].beginWaiters ?? CallWaiters()
                waiters.count += 1
                state[shared].beginWaiters = waiters
                return .awaitSharedBegin(record, shared, waiters)
            case .none, .ending, .ended:
                break
            }
        }
        let fresh = beginningSharedAssertion(for: record, name: options.sharedAssertionName, now: now)
        state[call: fresh].thread = thread
        state[fresh].pendingUsers = [record]
        state.shared = fresh
        return .begin(fresh)
    }

    /// Outside the lock: a task that joined a shared assertion being begun on another thread waits (bounded) for the
    /// outcome, to learn at once whether it runs; if that begin is still in flight then, it begins its own.
    func awaitSharedBegin(_ record: TaskRecord, _ assertion: SharedAssertion, _ waiters: CallWaiters) {
        if waiters.wait(timeout: options.inFlightBeginTimeout) { return }
        let action = withLock { state -> EngineAction in
            guard state[call: assertion].phase == .beginning, state[record].status == .running,
                let index = state[assertion].pendingUsers.firstIndex(where: { $0 === record })
            else { return .none }
            state[assertion].pendingUsers.remove(at: index)
            state.sharedUsers -= 1
            state[record].isCoalesced = false
            state[call: record].phase = .beginning
            state[call: record].thread = .current
            return .begin(record)
        }
        perform(action)
    }

    /// A new shared assertion about to be begun on this thread, named `name`, under the call site (and through the
    /// backend) of `model`: the task that needs it, or the assertion it renews.
    private func beginningSharedAssertion(for model: AssertionHolder, name: String?, now: TimeInterval)
        -> SharedAssertion
    {
        SharedAssertion(
            engine: self, backend: model.backend, number: 0, name: name, callSite: model.callSite, beganAt: now,
            phase: .beginning)
    }

    /// The shared assertion's (or its renewal's) begin returned `identifier`.
    func sharedBeginReturned(
        _ assertion: SharedAssertion,
        identifier: BackgroundTaskIdentifier?,
        now: TimeInterval,
        dropped: inout DroppedCleanups,
        _ state: inout EngineState
    ) -> EngineAction {
        var actions: [EngineAction] = []
        if let waiters = state[assertion].beginWaiters {
            state[assertion].beginWaiters = nil
            actions.append(.wake(waiters, count: waiters.count))
        }
        let users = state[assertion].pendingUsers
        state[assertion].pendingUsers = []
        let isRenewal = state.renewal === assertion
        if isRenewal { state.renewal = nil }
        guard let identifier else {
            if let waiters = state[call: assertion].finish() { actions.append(.wake(waiters, count: waiters.count)) }
            if state.shared === assertion { state.shared = nil }
            for record in users {
                guard state[record].status == .running else { continue }
                state[record].status = .notGranted
                dropped.add(state[record].cleanup)
                state[record].cleanup = nil
                state.sharedUsers -= 1
                finished(record, as: .notGranted, &state)
            }
            if isRenewal {  // the system refused a fresh assertion: try again a little later
                actions.append(
                    scheduleRenewalCheck(now: now, retryingIn: options.lingerMinimumTimeRemaining, &state))
            }
            return .many(actions)
        }
        state[call: assertion].identifier = identifier
        state[call: assertion].phase = .held
        if state[call: assertion].claimed {
            // An expiry covered it while it was being begun; its tasks have expired already.
            actions.append(retire(assertion, &state))
            return .many(actions)
        }
        if isRenewal {
            guard let old = state.shared, state[call: old].phase == .held, state.sharedUsers > 0 else {
                actions.append(retire(assertion, &state))  // nothing left to take over
                return .many(actions)
            }
            state.shared = assertion
            actions.append(retire(old, &state))
            actions.append(scheduleRenewalCheck(now: now, &state))
            return .many(actions)
        }
        for record in users {
            if state[record].status == .running { recorder?.noteGranted(record) }
        }
        if state.sharedUsers == 0 || (options.holdsOnlyInBackground && state.inBackground == false) {
            actions.append(retire(assertion, &state))  // every user ended while it was being begun
        } else {
            actions.append(scheduleRenewalCheck(now: now, &state))
        }
        return .many(actions)
    }

    /// The backend reported the app's state (on the main actor). With ``Options/holdsOnlyInBackground``, leaving the
    /// foreground raises the shared assertion for the running tasks, and returning drops it; tasks run on either way.
    func applicationStateChanged(inBackground: Bool) {
        let now = clock.now()
        let action = withLock(at: now) { state -> EngineAction in
            state.inBackground = inBackground
            if !inBackground {
                guard let shared = state.shared, state[call: shared].phase == .held else { return .none }
                return retire(shared, &state)
            }
            guard state.sharedUsers > 0, state.shared == nil, let first = firstRunningTask(&state) else {
                return .none
            }
            let fresh = beginningSharedAssertion(for: first, name: options.sharedAssertionName, now: now)
            state.shared = fresh
            return .begin(fresh)
        }
        perform(action)
    }

    /// A coalesced task ended.
    func release(bySafetyNet: Bool, now: TimeInterval, _ state: inout EngineState) -> EngineAction {
        state.sharedUsers -= 1
        // Being begun: its return decides.
        guard let shared = state.shared, state[call: shared].phase == .held else { return .none }
        guard state.sharedUsers == 0 else { return renewIfOld(now: now, &state) }
        state[call: shared].endedBySafetyNet = bySafetyNet
        // Never linger during any expiry: an assertion begun and ended in a cleanup would outlive every handler.
        if options.linger > 0, state.expiriesInProgress == 0, !ExpiriesInProgress.any(hooks?.system) {
            state[shared].idleSince = now
            return .considerLinger(shared)
        }
        return retire(shared, &state)
    }

    /// Outside the lock: the shared assertion went idle; linger unless the linger would reach into the last background
    /// seconds, else end it.
    func considerLinger(_ assertion: SharedAssertion) {
        let remaining = assertion.backend.backgroundTimeRemaining
        // The whole linger must fit before the last seconds: one that reached into the expiry would only keep an idle
        // app awake until its handlers ran (a test's settling would stop short of it and see the assertion held).
        let tooLittleTime = remaining.map { !($0 >= options.lingerMinimumTimeRemaining + options.linger) } ?? false
        let action = withLock { state -> EngineAction in
            guard state.shared === assertion, state.sharedUsers == 0, state[assertion].idleSince != nil,
                state[call: assertion].phase == .held
            else { return .none }
            if tooLittleTime || state.expiriesInProgress > 0 || ExpiriesInProgress.any(hooks?.system) {
                return retire(assertion, &state)
            }
            if state.lingerTimerPending { return .none }
            state.lingerTimerPending = true
            return .scheduleLinger(after: options.linger)
        }
        perform(action)
    }

    /// The linger timer fired: end the shared assertion if it has been idle long enough, or wait for the rest of its
    /// linger. One timer at a time, however many tasks come and go.
    func lingerElapsed() {
        let now = clock.now()
        let action = withLock(at: now) { state -> EngineAction in
            state.lingerTimerPending = false
            guard let shared = state.shared, state.sharedUsers == 0, let idleSince = state[shared].idleSince,
                state[call: shared].phase == .held
            else {
                return .none
            }
            let due = idleSince + options.linger
            if now + 1e-9 >= due || state.expiriesInProgress > 0 || ExpiriesInProgress.any(hooks?.system) {
                return retire(shared, &state)
            }
            state.lingerTimerPending = true
            return .scheduleLinger(after: due - now)
        }
        perform(action)
    }

    /// Ends a held shared assertion now; it is no longer the one tasks join.
    func retire(_ assertion: SharedAssertion, _ state: inout EngineState) -> EngineAction {
        guard state[call: assertion].phase == .held else { return .none }
        if state.shared === assertion { state.shared = nil }
        state[assertion].idleSince = nil
        state[call: assertion].phase = .ending
        state[call: assertion].thread = .current
        state.retiring.append(assertion)
        return .end(assertion, state[call: assertion].identifier, bySafetyNet: state[call: assertion].endedBySafetyNet)
    }

    /// The age at which iOS warns that an assertion "was created over 30 seconds ago".
    static let systemWarningAge: TimeInterval = 30

    /// Under the lock: at the renewal age, asks outside the lock whether renewing the shared assertion pays.
    func renewIfOld(now: TimeInterval, _ state: inout EngineState) -> EngineAction {
        // `renewalDue` is the assertion's begin time plus the renewal age, rounded once: comparing ages again could
        // round the other way and leave a timer firing at the due time forever.
        guard options.renewalAge != nil, now + 1e-9 >= state.renewalDue, let shared = state.shared,
            state.renewal == nil,
            state.expiriesInProgress == 0, state[call: shared].phase == .held, state.sharedUsers > 0
        else { return .none }
        return .considerRenewal(shared)
    }

    /// Outside the lock: renews the shared assertion unless that cannot help. In the foreground it always helps; in the
    /// background only if the assertion would otherwise reach the system's warning age before expiry, and it is unsafe
    /// with under 5 s left (the system may not call a fresh assertion's handler): the renewal timer looks again later.
    func considerRenewal(_ assertion: SharedAssertion) {
        let remaining = assertion.backend.backgroundTimeRemaining
        let now = clock.now()
        let action = withLock(at: now) { state -> EngineAction in
            guard state.shared === assertion, state.renewal == nil, state.expiriesInProgress == 0,
                state[call: assertion].phase == .held,
                state.sharedUsers > 0
            else { return .none }
            if let remaining {
                let reachesWarningAge = now - assertion.beganAt + remaining > Self.systemWarningAge
                guard reachesWarningAge, remaining >= options.lingerMinimumTimeRemaining else {
                    return scheduleRenewalCheck(now: now, retryingIn: options.lingerMinimumTimeRemaining, &state)
                }
            }
            let fresh = beginningSharedAssertion(for: assertion, name: assertion.name, now: now)
            state.renewal = fresh
            return .begin(fresh)
        }
        perform(action)
    }

    /// Starts the renewal timer unless pending (never one per task), due at the renewal age or in `retryingIn` seconds.
    func scheduleRenewalCheck(now: TimeInterval, retryingIn retry: TimeInterval? = nil, _ state: inout EngineState)
        -> EngineAction
    {
        guard let age = options.renewalAge, !state.renewalTimerPending, let shared = state.shared else { return .none }
        state.renewalTimerPending = true
        return .scheduleRenewalCheck(after: retry ?? max(shared.beganAt + age - now, 0))
    }

    /// The renewal timer fired.
    func renewalCheckElapsed() {
        let now = clock.now()
        let action = withLock(at: now) { state -> EngineAction in
            state.renewalTimerPending = false
            checkSharedAssertionAge(now: now, &state)
            let renewing = renewIfOld(now: now, &state)
            // Keep one timer armed while a shared assertion is held and no renewal is in flight (its grant arms the
            // next): due at the renewal age, or a little later when due already but not renewable now.
            if case .none = renewing, state.renewal == nil, let shared = state.shared,
                state[call: shared].phase == .held
            {
                let wait = state.renewalDue - now
                return scheduleRenewalCheck(
                    now: now, retryingIn: wait > 1e-9 ? wait : options.lingerMinimumTimeRemaining, &state)
            }
            return renewing
        }
        perform(action)
    }

    /// Reports the shared assertion stale at the stale age (renewal prevents that unless off or refused a fresh one).
    func checkSharedAssertionAge(now: TimeInterval, _ state: inout EngineState) {
        guard let recorder, let staleTaskAge = recorder.staleTaskAge, let shared = state.shared,
            state[call: shared].phase == .held,
            !state[shared].staleReported, now - shared.beganAt >= staleTaskAge - 1e-9
        else { return }
        state[shared].staleReported = true
        recorder.noteStale(shared, age: now - shared.beganAt)
    }
}
