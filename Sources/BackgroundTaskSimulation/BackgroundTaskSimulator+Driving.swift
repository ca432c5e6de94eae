import BackgroundTaskKit
import Foundation

extension BackgroundTaskSimulator {
    // MARK: - App life cycle

    /// The user leaves the app: it enters the background with a fresh background-time budget.
    ///
    /// Only from ``SimulatedAppState/foreground``; otherwise a ``SimulatorMisuse`` is recorded.
    @MainActor public func enterBackground() {
        transition(to: .background, from: [.foreground])
    }

    /// The user returns to the app, from the background or from suspension.
    @MainActor public func enterForeground() {
        transition(to: .foreground, from: [.background, .suspended])
    }

    /// The system resumes the suspended app in the background (a silent push, a download that
    /// finished): it runs again with a fresh background-time budget.
    @MainActor public func resumeInBackground() {
        transition(to: .background, from: [.suspended])
    }

    @MainActor private func transition(to target: SimulatedAppState, from allowed: Set<SimulatedAppState>) {
        let changed = state.withLock { state -> Bool in
            guard allowed.contains(state.appState) else {
                state.record(.misuse(.invalidTransition(from: state.appState, to: target)))
                return false
            }
            let wasInBackground = state.appState != .foreground
            state.scheduler.hasFinishedLaunching = true
            state.transition(to: target)
            return wasInBackground != (state.appState != .foreground)
        }
        if changed { stateObservers.notify(inBackground: target != .foreground) }
        // Work sent to the main actor while the app was suspended runs now that it runs again: as much as an advance
        // takes; the rest on the main queue's turn.
        guard target != .suspended else { return }
        arrivals.open(limit: arrivalLimit, realTimeLimit: arrivalRealTimeLimit)
        mainThreadPump.runQueuedWork()
        _ = arrivals.close()
        mainThreadPump.runLeftWorkOnMainQueue()
    }

    // MARK: - The clock

    /// Moves virtual time forward, doing everything iOS would do on the way, in time order.
    ///
    /// First, handlers of refused begins (``SimulatorFault/notGranted(callingHandler:)``) run. Then,
    /// in the background with nothing held, the app is suspended. The budget runs while the app is in
    /// the background and holds an assertion; when it runs out every outstanding handler is called,
    /// in begin order, on the main actor, and the app is terminated if it still holds an assertion
    /// afterwards. Long-running warnings are printed as tasks reach 30 s of age.
    ///
    /// Called from inside an expiration handler, it is the same as ``spend(_:)-(TimeInterval)``.
    ///
    /// Its cost grows with what happens, not with the duration: a huge duration in which nothing is due
    /// returns at once. App timers are played one by one, so one advance plays at most
    /// ``maximumTimerFiringsPerAdvance`` of them (a manager holding a task in the foreground hands its
    /// shared assertion over every 20 s: 100,000 firings are about 23 days); then it stops at that time and
    /// records ``SimulatorMisuse/timerFiringLimitReached(limit:)``.
    ///
    /// Before the clock moves, it runs what the app's other threads sent to the main thread meanwhile (work hopped to
    /// the main actor, handlers due for their begins, their calls held by ``SimulatorFault/holdOffMainCalls(_:)``), in
    /// order. Threads that keep sending would hold the clock, and the test, for ever: so one advance takes at most
    /// ``maximumArrivalsPerAdvance`` pieces of such work, and none once ``maximumArrivalRealTimePerAdvance`` of real
    /// time has passed since it started; at the next piece it stops where it is, short of its target, and records
    /// ``SimulatorMisuse/arrivingWorkLimitReached(taken:work:)``. The work left runs in the next advance, or when the
    /// main thread is free.
    ///
    /// > Important: It returns within a bounded real time whatever other threads do. Stop or join threads that keep
    /// > calling before you advance, or advance in smaller steps once they are done: time stands still while it runs
    /// > their work.
    ///
    /// - Parameter duration: Seconds to move; a negative, infinite or NaN value records a
    ///   ``SimulatorMisuse/invalidDuration`` and does nothing.
    @MainActor public func advance(by duration: TimeInterval) {
        _ = advance(by: duration, firingLimit: Self.maximumTimerFiringsPerAdvance, recordsLimit: true)
    }

    /// ``advance(by:)-(TimeInterval)`` that fires at most `firingLimit` app timers and takes at most ``arrivalLimit``
    /// pieces of work from other threads (recording the misuse of either limit when `recordsLimit`), and returns how
    /// many timers it fired.
    @MainActor func advance(by duration: TimeInterval, firingLimit: Int, recordsLimit: Bool) -> Int {
        var firings = 0
        guard duration.isFinite, duration >= 0 else {
            state.withLock { $0.record(.misuse(.invalidDuration)) }
            return firings
        }
        if state.withLock({ $0.spendInHandler(duration) }) { return firings }
        state.withLock { $0.scheduler.hasFinishedLaunching = true }
        arrivals.open(limit: arrivalLimit, realTimeLimit: arrivalRealTimeLimit)
        defer {
            if let refused = arrivals.close(), recordsLimit {
                state.withLock {
                    $0.record(.misuse(.arrivingWorkLimitReached(taken: refused.taken, work: refused.work)))
                }
            }
            mainThreadPump.runLeftWorkOnMainQueue()
        }
        settleOffMainHandlers()
        runPendingHandlers()
        let target = state.withLock { $0.now + duration }
        var heldLandedThrough: Int?
        var releasedLandedThrough: Int?
        var callsCounted = callGate.ticketsIssued
        while true {
            // Work that kept arriving from other threads filled this advance: it stops here, before the clock moves.
            if arrivals.isExhausted { return firings }
            settleOffMainHandlers()  // no time passes while a handler runs on another thread
            settleAppThreads()
            // What the app's threads sent to the main actor as they finished runs before time moves.
            if mainThreadPump.runQueuedWork() { continue }
            // A task begun during this advance (after an expiry) gets its handler before time moves.
            if state.withLock({ !$0.pendingHandlers.isEmpty }) {
                runPendingHandlers()
                continue
            }
            if arrivals.isExhausted { return firings }
            // Held calls, and calls released but not landed yet, land before the watchdog looks (each
            // call once: one that never lands does not stop the clock).
            let tickets = callGate.ticketsIssued
            let heldCalls = !callGate.isIdle && tickets != heldLandedThrough
            let releasedCalls = !callGate.allLanded && tickets != releasedLandedThrough
            switch state.withLock({ $0.step(until: target, heldCalls: heldCalls, releasedCalls: releasedCalls) }) {
            case .done:
                return firings
            case .again:
                continue
            case .landHeldCalls:
                guard takeCalls(through: tickets, counted: &callsCounted) else { continue }
                heldLandedThrough = tickets
                releasedLandedThrough = tickets
                landHeldCalls()
            case .landReleasedCalls:
                guard takeCalls(through: tickets, counted: &callsCounted) else { continue }
                releasedLandedThrough = tickets
                landReleasedCalls()
            case .expire(let calls):
                runExpiry(calls)
            case .expireScheduledTask(let handler):
                callScheduledExpirationHandler(handler)
            case .launchContinuedProcessing(let launch):
                callContinuedLaunchHandler(launch)
            case .fire(let work):
                work()
                settleOffMainHandlers()
                firings += 1
                if firings >= firingLimit {
                    if recordsLimit { state.withLock { $0.record(.misuse(.timerFiringLimitReached(limit: firings))) } }
                    return firings
                }
            }
        }
    }

    /// The most app timers one ``advance(by:)-(TimeInterval)`` fires: 100,000 (about half a second here).
    public static let maximumTimerFiringsPerAdvance = 100_000

    /// The most pieces of work from the app's other threads that one ``advance(by:)-(TimeInterval)`` runs while the
    /// clock stands still: 10,000 (work hopped to the main actor, expiration handlers due for begins made meanwhile,
    /// landings of calls held by ``SimulatorFault/holdOffMainCalls(_:)``), taken within
    /// ``maximumArrivalRealTimePerAdvance``.
    ///
    /// Bursts below it run entirely before time moves, as on a device. Threads that keep sending work past it stop the
    /// advance short of its target, with ``SimulatorMisuse/arrivingWorkLimitReached(taken:work:)``: a test whose
    /// threads never stop cannot hang in the simulator.
    public static let maximumArrivalsPerAdvance = 10_000

    /// The real time, in seconds from its start, after which one ``advance(by:)-(TimeInterval)`` takes no more work
    /// from other threads: 2 s. One piece can take long (a handler that waits for a held call), so the number of pieces
    /// alone does not bound the time.
    public static let maximumArrivalRealTimePerAdvance: TimeInterval = 2

    /// The pieces of arriving work one advance takes (``maximumArrivalsPerAdvance``; tests of the simulator change it).
    package var arrivalLimit: Int {
        get { arrivalLimitSetting.withLock { $0.pieces } }
        set { arrivalLimitSetting.withLock { $0.pieces = newValue } }
    }

    /// The real time after which one advance takes no more arriving work (``maximumArrivalRealTimePerAdvance``; tests
    /// of the simulator change it).
    package var arrivalRealTimeLimit: TimeInterval {
        get { arrivalLimitSetting.withLock { $0.realTime } }
        set { arrivalLimitSetting.withLock { $0.realTime = newValue } }
    }

    /// The pieces of work from other threads waiting for the main thread now: work hopped to the main actor and
    /// handlers due when the clock next moves (a stress test keeps its threads from running far ahead of the advances).
    package var arrivingWorkWaiting: Int {
        mainThreadPump.queuedCount + state.withLock { $0.pendingHandlers.count }
    }

    /// Counts the calls that came to the gate of ``SimulatorFault/holdOffMainCalls(_:)`` since the last landing (at
    /// least one) as arriving work; `false` when the advance may take no more, so that they stay held.
    @MainActor private func takeCalls(through tickets: Int, counted: inout Int) -> Bool {
        let arrived = max(tickets - counted, 1)
        counted = max(tickets, counted)
        return arrivals.take(upTo: arrived, of: .heldCalls) > 0
    }

    /// Spends virtual time inside an expiration handler, to model slow cleanup.
    ///
    /// Time spent by all the handlers of one expiry counts against the handler time budget; past
    /// it, the watchdog terminates the app at the instant the budget ran out. Outside a handler it
    /// is the same as ``advance(by:)-(TimeInterval)``.
    ///
    /// ```swift
    /// backend.beginBackgroundTask(named: "Save") {
    ///     simulator.spend(2)  // closing the database takes 2 s
    ///     backend.endBackgroundTask(id)
    /// }
    /// ```
    ///
    /// - Parameter duration: Seconds the handler takes.
    @MainActor public func spend(_ duration: TimeInterval) {
        advance(by: duration)
    }

    /// The app's own threads that the driver tells of (``appThreadsSettled``) finish or park before
    /// the clock moves, at most 0.5 s of real time: a device runs them in microseconds. Meanwhile the
    /// main thread runs what they send to the main actor.
    @MainActor private func settleAppThreads() {
        guard let settled = appThreadsSettled else { return }
        let deadline = Date(timeIntervalSinceNow: 0.5)
        while !settled(), Date() < deadline {
            mainThreadPump.runQueuedWork()
            usleep(50)
        }

    }

    /// Handlers running off the main thread, and the work they sent to the main actor, finish before
    /// the clock moves.
    /// While the main thread waits for them, the time it spends on their behalf (their cleanups'
    /// `spend(_:)`) is handler time, not time that moves the clock through due events.
    @MainActor private func settleOffMainHandlers() {
        guard mainThreadPump.hasPendingWork else { return }
        state.withLock { $0.handlerContexts.append(HandlerContext()) }
        let outcome = mainThreadPump.settle(timeout: offMainHandlerTimeout)
        state.withLock { state in
            _ = state.handlerContexts.popLast()
            if outcome == .timedOut { state.record(.misuse(.offMainHandlerDidNotReturn(nil))) }
        }
    }

    // MARK: - App timers

    /// Schedules `work` to run after `delay` seconds of virtual time, as an app timer would: it runs
    /// inside a later ``advance(by:)-(TimeInterval)``, on the main actor, while the app runs (a suspended app's timers
    /// wait until it runs again). Callable from any thread.
    ///
    /// Pass it where code takes a scheduler, so that its timers follow the virtual clock:
    ///
    /// ```swift
    /// let debouncer = Debouncer { delay, work in simulator.schedule(after: delay, work) }
    /// ```
    ///
    /// - Parameters:
    ///   - delay: Seconds from now; negative counts as 0.
    ///   - work: What to run.
    public nonisolated func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.schedule(after: delay.isNaN ? 0 : delay, work) }
    }

    // MARK: - Calling handlers

    /// Calls the pending handlers, in order, as far as the advance may take them; the rest wait for the next.
    /// (Never nested: the handlers it calls run with a handler account, in which an advance is a `spend`.)
    @MainActor private func runPendingHandlers() {
        let pending = state.withLock { $0.pendingHandlers }
        var taken = 0
        defer { state.withLock { $0.pendingHandlers.removeFirst(taken) } }
        for (identifier, handler) in pending {
            guard arrivals.take(upTo: 1, of: .expirationHandlers) == 1 else { return }
            taken += 1
            // A late task's handler is not called once the task has ended.
            if let identifier, !state.withLock({ $0.isOutstanding(identifier) }) { continue }
            invokeOutsideExpiry(handler, for: identifier)
        }
    }

    @MainActor private func runExpiry(_ calls: [(BackgroundTaskIdentifier, @MainActor @Sendable () -> Void)]) {
        for (identifier, handler) in calls {
            let due = state.withLock { $0.termination == nil && $0.isOutstanding(identifier) }
            guard due else { continue }
            invoke(handler, for: identifier)
        }
        // Calls held off the main thread land now: after the handlers, before the system looks.
        landHeldCalls()
        state.withLock { $0.finishExpiry() }
    }

    /// Releases the calls held off the main thread and waits (at most 2 s of real time) until they
    /// have reached the system, running meanwhile what they send to the main actor (a handler such a
    /// begin gets may send its cleanups there), as handler time: the main thread is free for them.
    @MainActor private func landHeldCalls() {
        callGate.releaseAll()
        landReleasedCalls()
    }

    /// Waits (at most 2 s of real time) until the calls released from the gate have reached the
    /// system, running meanwhile what they send to the main actor, as handler time.
    @MainActor private func landReleasedCalls() {
        let deadline = Date(timeIntervalSinceNow: 2)
        while !callGate.allLanded, Date() < deadline {
            mainThreadPump.runQueuedWork()
            usleep(100)
        }
        mainThreadPump.runQueuedWork()
    }

    /// Calls a handler that is not part of an expiry: it gets its own handler-time account, charged
    /// only while the main thread runs the handler or waits for it (time the test spends on the main
    /// thread before a handler sent there starts, or beside a handler running on another thread, is
    /// not the handler's).
    func invokeOutsideExpiry(
        _ handler: @escaping @MainActor @Sendable () -> Void,
        for identifier: BackgroundTaskIdentifier?,
        faults: Set<SimulatorFault>? = nil
    ) {
        invoke(handler, for: identifier, ownAccount: true, faults: faults)
    }

    /// Whether the app's threads that the test drives itself are done or parked by the simulator (at
    /// the gate of ``SimulatorFault/holdOffMainCalls(_:)``, or frozen while suspended: see
    /// ``parkedThreadIDs``); `nil`: none. Asked before the clock moves, which waits for it.
    package var appThreadsSettled: (@Sendable () -> Bool)? {
        get { appThreadsSettledSetting.withLock { $0.check } }
        set { appThreadsSettledSetting.withLock { $0.check = newValue } }
    }

    /// How long, in real time, an expiry waits for a cancelled `async` body off the main actor to return before ending
    /// its assertion or completing its task (2 s): virtual time stands still meanwhile, and a loaded test machine may
    /// take longer than a device for the same unwinding, so the faces' device limits (`windDownLimit`, and 2 s for all
    /// handlers of one expiry) do not apply here. Tests of a body that never returns shorten it.
    package var windDownRealTimeLimit: TimeInterval {
        get { windDownRealTimeLimitSetting.withLock { $0 } }
        set { windDownRealTimeLimitSetting.withLock { $0 = newValue } }
    }

    /// How long, in real time, the main thread waits for a handler called off the main thread before
    /// it records ``SimulatorMisuse/offMainHandlerDidNotReturn(_:)`` and goes on (10 s; tests of the
    /// simulator shorten it).
    package var offMainHandlerTimeout: TimeInterval {
        get { offMainHandlerTimeoutSetting.withLock { $0 } }
        set { offMainHandlerTimeoutSetting.withLock { $0 = newValue } }
    }

    /// Calls a handler where the faults say (main thread, or another thread) and as often as they
    /// say, recording its entry and exit. Never under the lock.
    private func invoke(
        _ handler: @escaping @MainActor @Sendable () -> Void,
        for identifier: BackgroundTaskIdentifier?,
        ownAccount: Bool = false,
        faults snapshot: Set<SimulatorFault>? = nil
    ) {
        let faults = snapshot ?? faults
        let call: @Sendable () -> Void = { [self] in
            let onMain = MainActorContext.isCurrent
            // On the main thread the handler's account opens when it starts, not when it was sent.
            let opensAccount = ownAccount && onMain
            state.withLock { state in
                if opensAccount { state.handlerContexts.append(HandlerContext()) }
                state.noteHandlerCalled(identifier)
                state.record(.expirationHandlerCalled(identifier, onMainActor: onMain))
            }
            callGate.handlerRunning(true)
            HandlerInvoker.call(handler)
            callGate.handlerRunning(false)
            state.withLock { state in
                state.record(.expirationHandlerReturned(identifier))
                if opensAccount { _ = state.handlerContexts.popLast() }
            }
        }
        for _ in 0..<(faults.contains(.handlerTwice) ? 2 : 1) {
            guard termination == nil else { return }
            guard faults.contains(.handlerOffMainActor) else {
                HandlerInvoker.runOnMainActor(call, pump: mainThreadPump)
                continue
            }
            guard MainActorContext.isCurrent else {
                // Already off the main thread (inside a begin made there): no account the main thread
                // could charge, but the clock waits for it like for any handler.
                mainThreadPump.runTracked(call)
                continue
            }
            // The main thread waits for the handler, running the work it sends to the main actor.
            if ownAccount { state.withLock { $0.handlerContexts.append(HandlerContext()) } }
            let returned = HandlerInvoker.runOffMainActor(
                call, pump: mainThreadPump, timeout: offMainHandlerTimeout)
            state.withLock { state in
                if ownAccount { _ = state.handlerContexts.popLast() }
                if returned == .timedOut { state.record(.misuse(.offMainHandlerDidNotReturn(identifier))) }
            }
        }
    }
}
