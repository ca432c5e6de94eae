import Dispatch
import Foundation

/// Identifies one logical task inside a ``TaskEngine``; grows with each begin, so it orders tasks.
package struct TaskToken: Hashable, Comparable, Sendable {
    let rawValue: UInt64

    package static func < (lhs: TaskToken, rhs: TaskToken) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A user cleanup, run on the main actor when the task expires.
package typealias ExpirationCleanup = @MainActor @Sendable () -> Void

/// A task an expiry ends: its cleanup, and what observers are told about it.
struct ExpiringTask: Sendable {
    let token: TaskToken
    let cleanup: ExpirationCleanup?
    let name: String?
    let callSite: BackgroundTaskCallSite
}

/// One logical task.
struct TaskRecord {
    let name: String?
    let callSite: BackgroundTaskCallSite
    let beganAt: TimeInterval
    var cleanup: ExpirationCleanup?
    /// The assertion slot it uses; `nil` when it never ran.
    var slotKey: UInt64?
    var status: BackgroundTaskState
}

/// One system assertion, shared by one task (per-task mode) or by all tasks (coalescing mode).
struct AssertionSlot {
    /// The thread calling `beginBackgroundTask` for it (an expiration handler nested in that call
    /// must not wait for it to return).
    var beginThread: ObjectIdentifier
    /// Signalled once `beginBackgroundTask` has returned and its outcome has been acted on.
    var begun: DispatchSemaphore
    /// `nil` while `beginBackgroundTask` has not returned yet.
    var identifier: BackgroundTaskIdentifier?
    /// The running tasks that use it.
    var users: Set<TaskToken> = []
    /// The expiration handler has run: the slot ends as soon as its identifier is known.
    var expired = false
    /// Coalescing: no users left, kept for the linger time; the generation of its linger timer.
    var lingerGeneration: UInt64?
    /// Its last user left by the deinit safety net: the assertion's own end, when it comes (after the
    /// linger, or once a begin in flight returns), is the safety net's too.
    var releasedBySafetyNet = false
}

/// What the engine does once its lock is released.
enum EngineAction {
    case none
    /// Call the backend's begin for this slot, act on the result, then signal `begun`.
    case beginAssertion(slotKey: UInt64, name: String?, callSite: BackgroundTaskCallSite, begun: DispatchSemaphore)
    /// Run the cleanups of these expiring tasks (in order, on the main actor), then end these identifiers, then wait (bounded)
    /// for begins still in flight on other threads, which end their assertions as soon as they return;
    /// with `finishesExpiry`, then tell the state the expiry is over (``EngineState/expiryFinished()``).
    /// `bySafetyNet`: the ends are the deinit safety net's (backends that diagnose count them apart).
    case runCleanupsThenEnd(
        expiring: [ExpiringTask],
        identifiers: [BackgroundTaskIdentifier],
        finishesExpiry: Bool,
        awaitingBegins: [DispatchSemaphore] = [],
        bySafetyNet: Bool = false
    )
    /// Start the linger timer of the shared slot.
    case scheduleLinger(generation: UInt64)
}

/// All of a ``TaskEngine``'s bookkeeping, behind its lock. Its methods only compute.
struct EngineState {
    let options: TaskEngine.Options
    var nextToken: UInt64 = 1
    var nextLingerGeneration: UInt64 = 1
    var tasks: [TaskToken: TaskRecord] = [:]
    /// Keyed by the token of the task that began the assertion, so a slot is never replaced.
    var slots: [UInt64: AssertionSlot] = [:]
    /// Coalescing: the slot new tasks join, while it exists and has not expired.
    var sharedSlotKey: UInt64?
    /// Expiries whose cleanups and ends are running: no assertion may linger past them.
    var expiriesInProgress = 0
    /// The diagnostics ledger: records, counters per call site, events (constant work per begin and end).
    var ledger: TaskLedger
    /// Cleanups dropped by the last operation. The engine releases them after unlocking: releasing one
    /// may run `deinit`s of user objects, which may call back into the engine.
    var discardedCleanups: [ExpirationCleanup] = []
    /// The engine clock's time of the current operation.
    var operationTime: TimeInterval {
        get { ledger.operationTime }
        set { ledger.operationTime = newValue }
    }
    /// Whether observers want events.
    var observed: Bool { ledger.observed }

    init(options: TaskEngine.Options) {
        self.options = options
        self.ledger = TaskLedger(limit: options.maximumOutstandingTasks, staleTaskAge: options.staleTaskAge)
    }

    // MARK: - Begin

    mutating func begin(
        name: String?,
        callSite: BackgroundTaskCallSite,
        cleanup: ExpirationCleanup?,
        remaining: TimeInterval?,
        thread: ObjectIdentifier
    ) -> (TaskToken, EngineAction) {
        checkStale()
        let token = TaskToken(rawValue: nextToken)
        nextToken += 1
        var record = TaskRecord(
            name: name,
            callSite: callSite,
            beganAt: operationTime,
            cleanup: cleanup,
            slotKey: nil,
            status: .running
        )
        ledger.noteBegin(key: token.rawValue, name: name, callSite: callSite)
        if let refusal = refusal(remaining: remaining) {
            record.status = .notGranted(refusal)
            if let cleanup { discardedCleanups.append(cleanup) }
            record.cleanup = nil
            tasks[token] = record
            ledger.noteRefused(key: token.rawValue, name: name, callSite: callSite, error: refusal)
            return (token, .none)
        }
        ledger.noteRunning(key: token.rawValue, name: name, callSite: callSite)
        // Join the shared assertion only once the system has granted it: a task must learn at once
        // whether it runs, and a refused begin must not take joiners down with it.
        if options.coalescing, let key = sharedSlotKey, var shared = slots[key], !shared.expired,
            shared.identifier != nil
        {
            shared.users.insert(token)
            shared.lingerGeneration = nil
            shared.releasedBySafetyNet = false
            slots[key] = shared
            record.slotKey = key
            tasks[token] = record
            ledger.noteGranted(key: token.rawValue)  // the shared assertion is granted already
            return (token, .none)
        }
        let key = token.rawValue
        if options.coalescing, sharedSlotKey.flatMap({ slots[$0] }) == nil { sharedSlotKey = key }
        let begun = DispatchSemaphore(value: 0)
        slots[key] = AssertionSlot(beginThread: thread, begun: begun, users: [token])
        record.slotKey = key
        tasks[token] = record
        let assertionName = options.coalescing ? options.sharedAssertionName : name
        return (token, .beginAssertion(slotKey: key, name: assertionName, callSite: callSite, begun: begun))
    }

    private func refusal(remaining: TimeInterval?) -> BackgroundTaskError? {
        if let limit = options.maximumOutstandingTasks, ledger.runningCount >= limit {
            return .limitReached(limit: limit)
        }
        if let required = options.minimumTimeRemaining, let remaining, remaining < required {
            return .insufficientTimeRemaining(remaining: remaining, required: required)
        }
        return nil
    }

    /// `beginBackgroundTask` returned `identifier` for `key`.
    mutating func assertionBegan(slotKey key: UInt64, identifier: BackgroundTaskIdentifier?) -> EngineAction {
        guard var slot = slots[key], slot.identifier == nil else {
            // Cannot happen: a slot without identifier is only removed here. End what we got.
            return identifier.map { .runCleanupsThenEnd(expiring: [], identifiers: [$0], finishesExpiry: false) }
                ?? .none
        }
        guard let identifier else {
            slots[key] = nil
            for token in slot.users where tasks[token]?.status == .running {
                finish(token, as: .notGranted(.notGranted), ending: .notGranted)
            }
            return .none
        }
        if slot.expired || slot.users.isEmpty {
            // Expired before the identifier was known, or ended meanwhile: end it now, once.
            slots[key] = nil
            return .runCleanupsThenEnd(
                expiring: [],
                identifiers: [identifier],
                finishesExpiry: false,
                bySafetyNet: !slot.expired && slot.releasedBySafetyNet
            )
        }
        slot.identifier = identifier
        slots[key] = slot
        for token in slot.users.sorted() {
            if tasks[token]?.status == .running { ledger.noteGranted(key: token.rawValue) }
        }
        return .none
    }

    // MARK: - End

    /// Ends one task; does nothing if it is not running.
    mutating func end(_ token: TaskToken, bySafetyNet: Bool = false) -> EngineAction {
        checkStale()
        guard let record = tasks[token], record.status == .running else { return .none }
        finish(token, as: .ended, ending: bySafetyNet ? .endedBySafetyNet : .ended)
        guard let key = record.slotKey, var slot = slots[key] else { return .none }
        slot.users.remove(token)
        slot.releasedBySafetyNet = bySafetyNet
        guard slot.users.isEmpty, let identifier = slot.identifier else {
            slots[key] = slot  // still used, or still beginning (ended when granted)
            return .none
        }
        if options.coalescing, options.linger > 0, expiriesInProgress == 0, key == sharedSlotKey {
            let generation = nextLingerGeneration
            nextLingerGeneration += 1
            slot.lingerGeneration = generation
            slots[key] = slot
            return .scheduleLinger(generation: generation)
        }
        slots[key] = nil
        return .runCleanupsThenEnd(
            expiring: [], identifiers: [identifier], finishesExpiry: false, bySafetyNet: bySafetyNet)
    }

    /// The linger timer `generation` fired: end the shared assertion if it is still unused.
    mutating func lingerElapsed(generation: UInt64) -> EngineAction {
        guard let key = sharedSlotKey, let slot = slots[key], slot.lingerGeneration == generation,
            slot.users.isEmpty, let identifier = slot.identifier
        else { return .none }
        slots[key] = nil
        return .runCleanupsThenEnd(
            expiring: [], identifiers: [identifier], finishesExpiry: false, bySafetyNet: slot.releasedBySafetyNet)
    }

    /// Ends every running task and every held assertion, without cleanups.
    mutating func endAll() -> EngineAction {
        for (token, record) in tasks where record.status == .running {
            finish(token, as: .ended, ending: .ended)
        }
        var identifiers: [BackgroundTaskIdentifier] = []
        for (key, var slot) in slots {
            slot.users.removeAll()
            if let identifier = slot.identifier {
                identifiers.append(identifier)
                slots[key] = nil
            } else {
                slots[key] = slot  // still beginning: ended when granted
            }
        }
        return .runCleanupsThenEnd(
            expiring: [],
            identifiers: identifiers.sorted { $0.rawValue < $1.rawValue },
            finishesExpiry: false
        )
    }

    // MARK: - Expiry

    /// The expiration handler of slot `key` ran. Idempotent: a second call, or a call after the slot
    /// ended, does nothing.
    mutating func expire(slotKey key: UInt64, thread: ObjectIdentifier) -> EngineAction {
        guard let slot = slots[key], !slot.expired else { return .none }
        let keys = options.expiresAllTogether ? Array(slots.keys) : [key]
        var expiringTokens: [TaskToken] = []
        var identifiers: [BackgroundTaskIdentifier] = []
        var awaitingBegins: [DispatchSemaphore] = []
        for key in keys {
            guard var slot = slots[key], !slot.expired else { continue }
            expiringTokens.append(contentsOf: slot.users)
            slot.users.removeAll()
            if let identifier = slot.identifier {
                identifiers.append(identifier)
                slots[key] = nil
            } else {
                slot.expired = true  // ended as soon as begin returns its identifier
                slots[key] = slot
                if slot.beginThread != thread { awaitingBegins.append(slot.begun) }
            }
        }
        var expiringTasks: [ExpiringTask] = []
        for token in expiringTokens.sorted() {
            guard let record = tasks[token], record.status == .running else { continue }
            expiringTasks.append(
                ExpiringTask(token: token, cleanup: record.cleanup, name: record.name, callSite: record.callSite)
            )
            finish(token, as: .expired, ending: .expired)
        }
        expiriesInProgress += 1
        return .runCleanupsThenEnd(
            expiring: expiringTasks,
            identifiers: identifiers.sorted { $0.rawValue < $1.rawValue },
            finishesExpiry: true,
            awaitingBegins: awaitingBegins
        )
    }

    /// Reports, once each, running tasks older than the stale age, oldest first.
    mutating func checkStale() {
        ledger.checkStale()
    }

    /// Queues an event about an expiring task for the observers, if any.
    mutating func emit(_ kind: BackgroundTaskEvent.Kind, for task: ExpiringTask) {
        ledger.emit(kind, key: task.token.rawValue, name: task.name, callSite: task.callSite)
    }

    /// Moves a running task to its final status, dropping its cleanup and counting how it ended.
    private mutating func finish(_ token: TaskToken, as status: BackgroundTaskState, ending: TaskLedger.Ending) {
        guard var record = tasks[token], record.status == .running else { return }
        record.status = status
        if let cleanup = record.cleanup { discardedCleanups.append(cleanup) }
        record.cleanup = nil
        tasks[token] = record
        ledger.noteFinished(key: token.rawValue, as: ending)
    }

    mutating func expiryFinished() {
        expiriesInProgress = max(expiriesInProgress - 1, 0)
    }

    // MARK: - Reading and forgetting

    func status(of token: TaskToken) -> BackgroundTaskState {
        tasks[token]?.status ?? .ended
    }

    /// Drops a finished task's record; its owner is gone.
    mutating func forget(_ token: TaskToken) {
        if let record = tasks[token], record.status != .running {
            tasks[token] = nil
        }
    }

    /// The ledger as a report.
    func report() -> BackgroundTaskReport {
        ledger.report()
    }

    func outstanding() -> [OutstandingBackgroundTask] {
        ledger.outstanding()
    }
}
