import Dispatch

/// The bookkeeping of ``ExpiringActivityBackend``: one entry per activity whose block may still be
/// waiting to start or parked, all behind one lock; shared by every copy of the backend.
///
/// The lifecycle of an entry:
///
/// 1. ``register(expirationHandler:)`` adds it (`awaitingGrant`) before the performer is called, so
///    the first invocation always finds it.
/// 2. The first invocation of the block records the answer (`parked` or `refused`) and wakes `begin`;
///    when granted it then parks on the entry's gate.
/// 3. ``settleGrant(of:)`` (in `begin`) removes a refused or unanswered entry: a late first
///    invocation finds nothing and returns at once.
/// 4. ``release(_:)`` (from `end`, or after the expiration handler) removes a parked entry and opens
///    its gate, exactly once.
///
/// An absent entry makes every call a no-op, so an unknown, ended or abandoned identifier is harmless.
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

    /// Allocates an identifier and records a new activity waiting for its first invocation.
    ///
    /// - Returns: The identifier and the gate `begin` waits on for the answer.
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
            // A repeated expiry schedules the handler again; only the first to reach the main actor
            // finds the activity outstanding.
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

    /// Decides `begin`'s result after it waited for the answer (or gave up waiting).
    ///
    /// - Returns: `true` when the activity was granted (it may have been released already, when time
    ///   ran out before `begin` returned); `false` when it was refused or not answered, in which case
    ///   the entry is gone and a late first invocation returns at once.
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

/// The two semaphores of one activity: `begin` waits on `answered`, the parked first invocation on
/// `released`. Each is signalled at most once.
final class ActivityGate: Sendable {
    /// Signalled by the first invocation once it has recorded its answer.
    let answered = DispatchSemaphore(value: 0)
    /// Signalled when the activity is ended or has expired.
    let released = DispatchSemaphore(value: 0)
}
