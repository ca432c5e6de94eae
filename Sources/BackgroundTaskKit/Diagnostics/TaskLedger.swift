import Foundation

/// The diagnostics ledger: who began what, where, when, and how it ended; the counters per call site,
/// the high-water mark, and the events for observers.
///
/// Kept inside the lock of its owner (a ``TaskEngine`` or a ``DiagnosingBackend``); its methods only
/// compute and queue events. Every method called on begin or end does constant (amortized) work; only
/// ``report()`` and ``outstanding()`` walk the running tasks.
struct TaskLedger {
    /// How a task finished, and the counter it goes to.
    enum Ending {
        case ended
        case expired
        case endedBySafetyNet
        case notGranted

        var counter: WritableKeyPath<CallSiteStatistics, Int> {
            switch self {
            case .ended: \.ended
            case .expired: \.expired
            case .endedBySafetyNet: \.endedBySafetyNet
            case .notGranted: \.notGranted
            }
        }
    }

    /// A running task.
    struct Entry {
        let name: String?
        let callSite: BackgroundTaskCallSite
        let beganAt: TimeInterval
        /// Its assertion was granted (it counts toward the high-water mark).
        var granted = false
        /// Its expiry was reported while it still runs (a diagnosing backend's assertion is held
        /// until something ends it); it is no longer checked for staleness.
        var expired = false
    }

    /// Running tasks are reported as approaching this limit at 80 % of it; `nil`: never.
    let limit: Int?
    /// Age at which a running task is reported stale; `nil`: never.
    let staleTaskAge: TimeInterval?

    /// Running tasks by key. Keys are given by the owner and grow with each begin, so key order is
    /// begin order.
    private(set) var running: [UInt64: Entry] = [:]
    /// The counters, per call site.
    private(set) var statistics: [BackgroundTaskCallSite: CallSiteStatistics] = [:]
    /// The most tasks running at once.
    private(set) var highWaterMark = 0
    /// Running tasks whose assertion was granted.
    private var grantedCount = 0
    /// The owner (a manager's engine or a diagnosing backend), for the events' task IDs.
    var source: ObjectIdentifier?
    /// The clock's time of the current operation; the owner sets it before each operation.
    var operationTime: TimeInterval = 0
    /// The observers, each with its own serial delivery queue.
    var observers: [ObserverRegistration] = []
    /// Events of the current operation, handed to the observers by ``flushEvents()``.
    private var pendingEvents: [BackgroundTaskEvent] = []
    /// The running count already reported as approaching the limit, until it falls back below.
    private var limitApproachReported = false
    /// Every task with a key below this is finished or has been reported stale: the stale check
    /// resumes here, so it is amortized constant work per begin and end (begin times grow with keys).
    private var staleCursor: UInt64 = 0
    /// One past the largest key seen.
    private var keyBound: UInt64 = 0

    init(limit: Int?, staleTaskAge: TimeInterval?) {
        self.limit = limit
        self.staleTaskAge = staleTaskAge
    }

    /// Whether observers want events (no event values are made otherwise).
    var observed: Bool { !observers.isEmpty }

    /// Tasks running now.
    var runningCount: Int { running.count }

    // MARK: - Recording

    /// A begin call at `callSite`, granted or not.
    mutating func noteBegin(key: UInt64, name: String?, callSite: BackgroundTaskCallSite) {
        keyBound = max(keyBound, key + 1)
        statistics[callSite, default: CallSiteStatistics(callSite: callSite, firstBeganAt: operationTime)]
            .noteBegin(name: name, at: operationTime)
    }

    /// A begun task was refused before it ran.
    mutating func noteRefused(key: UInt64, name: String?, callSite: BackgroundTaskCallSite, error: BackgroundTaskError)
    {
        statistics[callSite]?.refused += 1
        emit(.refused(error), key: key, name: name, callSite: callSite)
    }

    /// A begun task runs from now on (it holds, or waits for, an assertion).
    mutating func noteRunning(key: UInt64, name: String?, callSite: BackgroundTaskCallSite) {
        running[key] = Entry(name: name, callSite: callSite, beganAt: operationTime)
        statistics[callSite]?.outstanding += 1
        if let limit, !limitApproachReported, running.count * 5 >= limit * 4 {
            limitApproachReported = true
            emit(.limitApproaching(outstanding: running.count, limit: limit), key: key, name: name, callSite: callSite)
        }
    }

    /// The running task `key` got its assertion: it counts toward the high-water mark (only granted
    /// tasks do, so begins still waiting for the system or refused by it never raise the mark), and,
    /// with `announce`, observers hear ``BackgroundTaskEvent/Kind/began``.
    mutating func noteGranted(key: UInt64, announce: Bool = true) {
        guard var entry = running[key], !entry.granted else { return }
        entry.granted = true
        running[key] = entry
        grantedCount += 1
        highWaterMark = max(highWaterMark, grantedCount)
        if announce { emit(.began, key: key, entry: entry) }
    }

    /// The expiry of the running task `key` began while it keeps running: observers hear
    /// ``BackgroundTaskEvent/Kind/expired``. Returns the task, or `nil` when it is not running or its
    /// expiry was already reported.
    mutating func noteExpiring(key: UInt64) -> Entry? {
        guard var entry = running[key], !entry.expired else { return nil }
        entry.expired = true
        running[key] = entry
        emit(.expired, key: key, entry: entry)
        return entry
    }

    /// The running task `key` finished; with `announce`, observers hear the ending's event. Does
    /// nothing if it is not running.
    mutating func noteFinished(key: UInt64, as ending: Ending, announce: Bool = true) {
        guard let entry = running.removeValue(forKey: key) else { return }
        if entry.granted { grantedCount -= 1 }
        statistics[entry.callSite]?[keyPath: ending.counter] += 1
        statistics[entry.callSite]?.outstanding -= 1
        if announce { emit(Self.event(for: ending), key: key, entry: entry) }
        if let limit, running.count * 5 < limit * 4 {
            limitApproachReported = false
        }
    }

    /// The running task `key`, if it runs.
    func entry(_ key: UInt64) -> Entry? {
        running[key]
    }

    private static func event(for ending: Ending) -> BackgroundTaskEvent.Kind {
        switch ending {
        case .ended: .ended
        case .expired: .expired
        case .endedBySafetyNet: .endedBySafetyNet
        case .notGranted: .refused(.notGranted)
        }
    }

    /// Reports, once each, running tasks older than the stale age, oldest first.
    mutating func checkStale() {
        guard let staleTaskAge else { return }
        while staleCursor < keyBound {
            guard let entry = running[staleCursor], !entry.expired else {
                staleCursor += 1
                continue
            }
            let age = operationTime - entry.beganAt
            guard age >= staleTaskAge - 1e-9 else { return }  // a timer due at the stale age may round below it
            emit(.stale(age: age), key: staleCursor, entry: entry)
            staleCursor += 1
        }
    }

    // MARK: - Events

    /// Queues an event about task `key` for the observers, if any.
    mutating func emit(_ kind: BackgroundTaskEvent.Kind, key: UInt64, name: String?, callSite: BackgroundTaskCallSite) {
        guard observed else { return }
        let taskID = BackgroundTaskEvent.TaskID(source: source, number: key)
        pendingEvents.append(
            BackgroundTaskEvent(kind: kind, taskID: taskID, name: name, callSite: callSite, time: operationTime)
        )
    }

    /// Queues an event about the running task `key` for the observers, if any.
    mutating func emit(_ kind: BackgroundTaskEvent.Kind, key: UInt64, entry: Entry) {
        emit(kind, key: key, name: entry.name, callSite: entry.callSite)
    }

    /// Hands the queued events to each observer's queue. Only enqueues: observers run on their own
    /// queues, never under the owner's lock, and in the order the lock saw the operations. Call it
    /// under the owner's lock at the end of each operation.
    mutating func flushEvents() {
        guard !pendingEvents.isEmpty else { return }
        let events = pendingEvents
        pendingEvents = []
        for registration in observers {
            registration.queue.async {
                for event in events { registration.observer.backgroundTaskEventOccurred(event) }
            }
        }
    }

    // MARK: - Reading

    /// The ledger as a report; the only work, with ``outstanding()``, that grows with the number of
    /// running tasks.
    func report() -> BackgroundTaskReport {
        var oldest: [BackgroundTaskCallSite: TimeInterval] = [:]
        for entry in running.values {
            oldest[entry.callSite] = max(oldest[entry.callSite] ?? 0, operationTime - entry.beganAt)
        }
        let callSites = statistics.values
            .map { statistics in
                var statistics = statistics
                statistics.oldestOutstandingAge = oldest[statistics.callSite]
                return statistics
            }
            .sorted {
                ($0.callSite.fileID, $0.callSite.line, $0.callSite.function) < (
                    $1.callSite.fileID, $1.callSite.line, $1.callSite.function
                )
            }
        return BackgroundTaskReport(
            generatedAt: operationTime,
            outstandingHighWaterMark: highWaterMark,
            callSites: callSites,
            outstandingTasks: outstanding()
        )
    }

    /// The running tasks in begin order, with their ages.
    func outstanding() -> [OutstandingBackgroundTask] {
        running.sorted { $0.key < $1.key }
            .map {
                OutstandingBackgroundTask(
                    taskNumber: $0.key,
                    name: $0.value.name,
                    callSite: $0.value.callSite,
                    age: operationTime - $0.value.beganAt
                )
            }
    }
}
