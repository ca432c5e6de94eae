import Dispatch

/// ``ExpiringActivityBackend``'s bookkeeping, one entry per activity, behind one lock shared by every copy of the
/// backend. ``register(expirationHandler:)`` adds it (`awaitingGrant`) before the performer is called; the first
/// invocation records `parked` or `refused`, wakes `begin` and, if granted, parks on the entry's gate;
/// ``settleGrant(of:)`` removes a refused or unanswered entry (a late invocation then returns at once); ``release(_:)``
/// removes a parked one and opens its gate, once. Without an entry every call is a no-op.
final class ExpiringActivityRegistry: Sendable {
    /// What the first invocation of an activity's block has said.
    private enum Phase {
        /// `begin` is still waiting for the first invocation.
        case awaitingGrant
        /// The first invocation got `expired == false` and is parked on the gate.
        case parked
        /// The first invocation got `expired == true`: no assertion.
        case refused
    }

    private struct Entry {
        var phase = Phase.awaitingGrant
        let expirationHandler: (@MainActor @Sendable () -> Void)?
        let gate: ActivityGate
    }

    private struct State {
        var nextIdentifier = 1
        var entries: [Int: Entry] = [:]
    }

    /// What an invocation of the block does once the lock is released.
    private enum InvocationAction {
        case returnAtOnce
        case answer(ActivityGate)
        case answerAndPark(ActivityGate)
        case expire((@MainActor @Sendable () -> Void)?)
    }

    private let state = Locked(State())
    /// How expiration handlers get onto the main actor; `nil`: `DispatchQueue.main`.
    private let mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

    init(mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil) {
        self.mainActorHop = mainActorHop
    }

    /// Records a new activity awaiting its first invocation; returns its identifier and the gate `begin` waits on.
    func register(expirationHandler: (@MainActor @Sendable () -> Void)?) -> (identifier: Int, gate: ActivityGate) {
        let gate = ActivityGate()
        let identifier = state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier &+= 1
            state.entries[identifier] = Entry(expirationHandler: expirationHandler, gate: gate)
            return identifier
        }
        return (identifier, gate)
    }

    /// The body of the block handed to the performer: called on the performer's threads.
    func invoke(_ identifier: Int, expired: Bool) {
        let action = state.withLock { state -> InvocationAction in
            guard let entry = state.entries[identifier] else { return .returnAtOnce }
            if entry.phase == .awaitingGrant {  // The first invocation.
                state.entries[identifier]?.phase = expired ? .refused : .parked
                return expired ? .answer(entry.gate) : .answerAndPark(entry.gate)
            }
            // Repeated expiries schedule the handler again; only the first on the main actor finds it outstanding.
            guard expired, entry.phase == .parked else { return .returnAtOnce }
            return .expire(entry.expirationHandler)
        }
        switch action {
        case .returnAtOnce:
            return
        case .answer(let gate):
            gate.answered.signal()
        case .answerAndPark(let gate):
            gate.answered.signal()
            gate.released.wait()
        case .expire(let handler):
            expire(identifier, handler: handler)
        }
    }

    /// Settles `begin`'s result after its wait: `true` if granted (maybe released already, if time ran out first);
    /// `false` if refused or unanswered, the entry then removed so a late first invocation returns at once.
    func settleGrant(of identifier: Int) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[identifier] else { return true }
            guard entry.phase == .parked else {
                state.entries[identifier] = nil
                return false
            }
            return true
        }
    }

    /// Lets a parked first invocation return, ending its assertion; harmless for any other identifier.
    func release(_ identifier: Int) {
        let gate = state.withLock { state -> ActivityGate? in
            guard let entry = state.entries[identifier], entry.phase == .parked else { return nil }
            state.entries[identifier] = nil
            return entry.gate
        }
        gate?.released.signal()
    }

    private func isOutstanding(_ identifier: Int) -> Bool {
        state.withLock { $0.entries[identifier] != nil }
    }

    /// Runs the expiration handler on the main actor, then releases the activity.
    private func expire(_ identifier: Int, handler: (@MainActor @Sendable () -> Void)?) {
        guard let handler else {
            release(identifier)
            return
        }
        let run: @Sendable () -> Void = {
            MainActor.assumeIsolated {
                // Ended meanwhile: the task is over, so its handler is not called.
                guard self.isOutstanding(identifier) else { return }
                handler()
                self.release(identifier)
            }
        }
        if let mainActorHop { mainActorHop(run) } else { DispatchQueue.main.async(execute: run) }
    }
}

/// One activity's semaphores, each signalled once at most: `begin` waits on `answered`, the parked block on `released`.
final class ActivityGate: Sendable {
    let answered = DispatchSemaphore(value: 0)  // signalled by the first invocation once it has recorded its answer
    let released = DispatchSemaphore(value: 0)  // signalled when the activity is ended or has expired
}
