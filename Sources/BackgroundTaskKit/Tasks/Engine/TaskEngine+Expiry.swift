import Dispatch
import Foundation

/// The expiration handler every assertion of the engine gets.
extension TaskEngine {
    /// The system called `holder`'s expiration handler (normally on the main actor; possibly off it, twice, before its
    /// begin returned, or never). The first handler for a set of assertions runs the cleanups in begin order on the
    /// main actor, ends every assertion whose identifier is known, then waits (bounded) for calls still in flight on
    /// other threads, so nothing it covers is held when it returns. A later handler for an assertion already covered
    /// also waits for a call in flight: its own handler is an assertion's last chance.
    func handlerCalled(for holder: AssertionHolder) {
        let thread = CallingThread.current
        let now = clock(for: holder).now()
        var dropped = DroppedCleanups()
        var plan = ExpiryPlan()
        plan.onMainActor = MainActorContext.isCurrent
        withLock(at: now) { state in expire(holder, thread: thread, dropped: &dropped, into: &plan, &state) }
        withExtendedLifetime(dropped) {}
        let system = hooks(for: holder)?.system
        if plan.started {
            ExpiriesInProgress.enter(system)
            cancelBodies(plan.cancels)
            runCleanupsOnMainActor(plan, clock: clock(for: holder), hop: hooks(for: holder)?.mainActorHop)
            WindDown.wait(for: plan.windDowns, realTimeLimit: hooks(for: holder)?.windDownRealTimeLimit)
            endOnBackend(plan.ends)
        }
        for (waiters, timeout) in plan.waits {
            _ = waiters.wait(timeout: timeout)
        }
        if plan.started {
            withLock { $0.expiriesInProgress -= 1 }
            ExpiriesInProgress.leave(system)
        }
    }

    /// Cancels expiring tasks' async bodies outside the lock (it runs cancellation handlers), then lets ends go on.
    private func cancelBodies(_ cancels: [(BodyTask, UnsafeCurrentTask)]) {
        guard !cancels.isEmpty else { return }
        for (_, task) in cancels { task.cancel() }
        var wakes: [(CallWaiters, Int)] = []
        withLock { state in
            for (body, _) in cancels {
                state[body].cancelling = false
                if let waiters = state[body].waiters {
                    wakes.append((waiters, waiters.count))
                    state[body].waiters = nil
                }
            }
        }
        for (waiters, count) in wakes { waiters.wake(count) }
    }

    /// Under the lock: claims the assertions this handler covers and expires their tasks.
    private func expire(
        _ holder: AssertionHolder, thread: CallingThread, dropped: inout DroppedCleanups, into plan: inout ExpiryPlan,
        _ state: inout EngineState
    ) {
        guard !state[call: holder].claimed else {
            claim(holder, ownedBy: true, thread: thread, into: &plan, &state)
            return
        }
        // The handler of an assertion that is already over (ended, or refused and called anyway, as the system may do)
        // covers nothing: the assertions still held get handlers of their own.
        guard state[call: holder].phase != .ended, state[call: holder].phase != .none else { return }
        plan.started = true
        plan.observed = recorder?.observed ?? false
        state.expiriesInProgress += 1
        claim(holder, ownedBy: true, thread: thread, into: &plan, &state)
        guard options.expiresAllTogether else {
            if let record = holder as? TaskRecord { expireTask(record, into: &plan, &state) }
            return
        }
        // A manager: the first expiry covers every assertion and every task.
        for assertion in [state.shared, state.renewal].compactMap({ $0 }) + state.retiring where assertion !== holder {
            claim(assertion, ownedBy: false, thread: thread, into: &plan, &state)
        }
        state.shared = nil
        state.renewal = nil
        state.sharedUsers = 0
        var entry = state.tasks.head
        while let current = entry {
            entry = current.next
            let record = (current as! TaskRecord)
            if !state[record].isCoalesced { claim(record, ownedBy: false, thread: thread, into: &plan, &state) }
            expireTask(record, into: &plan, &state)
        }
    }

    /// Under the lock: ends `holder`'s assertion now if its identifier is known, else waits for the call in flight.
    private func claim(
        _ holder: AssertionHolder, ownedBy own: Bool, thread: CallingThread, into plan: inout ExpiryPlan,
        _ state: inout EngineState
    ) {
        let alreadyClaimed = state[call: holder].claimed
        state[call: holder].claimed = true
        switch state[call: holder].phase {
        case .held where !alreadyClaimed:
            state[call: holder].phase = .ending
            state[call: holder].thread = thread
            plan.ends.append((holder, state[call: holder].identifier))
        case .beginning, .ending:
            if let waiters = state[call: holder].waiter(unlessOn: thread) {
                let isBegin = state[call: holder].phase == .beginning
                plan.waits.append((waiters, own || !isBegin ? options.lastChanceTimeout : options.inFlightBeginTimeout))
            }
        case .held, .none, .ended:
            break
        }
    }

    /// Under the lock: a running task expires; its cleanup goes into the plan.
    private func expireTask(_ record: TaskRecord, into plan: inout ExpiryPlan, _ state: inout EngineState) {
        guard state[record].status == .running else { return }
        state[record].status = .expired
        if let body = record.body {
            if let task = state[body].task {
                state[body].task = nil
                state[body].cancelling = true
                plan.cancels.append((body, task))
                if body.windDownLimit > 0, !(plan.onMainActor && state[body].onMainActor) {
                    let waiters = CallWaiters()
                    state[body].windingDown = waiters
                    plan.windDowns.append((waiters, body.windDownLimit, state[body].onMainActor))
                }
            } else {
                state[body].cancelOnAttach = true  // its task has not started yet
            }
        }
        plan.expiring.append(ExpiringTask(record: record, cleanup: ExpiringTask.Cleanup(run: state[record].cleanup)))
        state[record].cleanup = nil
        finished(record, as: .expired, unlinking: state[record].isCoalesced || !state[call: record].isInFlight, &state)
    }

    /// Runs the expiring tasks' cleanups in order on the main actor, each between the observers' "handler entered" and
    /// "handler exited" events: directly when already there (normally, inside the system's handler); else on the main
    /// queue (or the backend's ``BackgroundTaskBackendHooks/mainActorHop``: the simulator's), waiting at most
    /// `offMainCleanupTimeout` so the assertions are still ended inside the handler if the main thread is busy.
    private func runCleanupsOnMainActor(
        _ plan: ExpiryPlan,
        clock: BackendClock,
        hop: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    ) {
        guard plan.observed || plan.expiring.contains(where: { $0.cleanup.run != nil }) else { return }
        let work = HandedOver(plan)
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { runCleanups(work.value, clock: clock) }
            return
        }
        let done = DispatchSemaphore(value: 0)
        let run: @Sendable () -> Void = {
            MainActor.assumeIsolated { self.runCleanups(work.value, clock: clock) }
            done.signal()
        }
        if let hop { hop(run) } else { DispatchQueue.main.async(execute: run) }
        _ = done.wait(timeout: .now() + options.offMainCleanupTimeout)
    }

    @MainActor
    private func runCleanups(_ plan: ExpiryPlan, clock: BackendClock) {
        for task in plan.expiring {
            let (record, cleanup) = (task.record, task.cleanup.run)
            if plan.observed { withLock(at: clock.now()) { _ in recorder?.noteExpirationHandlerEntered(record) } }
            let start = plan.observed ? clock.now() : 0
            cleanup?()
            if plan.observed {
                let end = clock.now()
                withLock(at: end) { _ in recorder?.noteExpirationHandlerExited(record, duration: end - start) }
            }
        }
    }
}
