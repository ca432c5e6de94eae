@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// The diagnostics ledger: who began what, where, when, and how it ended; the counters per call site,
/// the high-water mark, and the events for observers.
///
/// Kept inside the lock of its owner (a manager's engine, whose recorder it is, or the
/// ``BackgroundTaskDiagnostics`` of a ``DiagnosingBackend`` or a tracer), which makes
/// every access exclusive (so no run-time exclusivity checks); its methods only compute and queue
/// events. Every method called on begin or end does constant work, with no hashing
/// beyond one call-site look-up per begin (and none when the same call site begins again). The
/// running tasks are the owner's own objects (``TaskListEntry``), in the owner's own ``TaskList``,
/// which the owner links and unlinks; only ``report(of:)``, ``outstanding(of:)``,
/// ``heldTasks(of:limit:nameLength:)`` and the stale check walk it.
package final class TaskLedger: TaskRecorder {
    /// Running tasks are reported as approaching this limit at 80 % of it; `nil`: never.
    package let limit: Int?
    /// `limit` minus a fifth of it, rounded down: 80 % rounded up, computed without overflow.
    private let limitThreshold: Int
    /// Age at which a running task is reported stale; `nil`: never.
    package let staleTaskAge: TimeInterval?

    /// The counters, one per call site, in first-seen order.
    // Unchecked here and in this module's other owners (diagnostics, diagnosing backend, observer buffers): their lock
    // makes every access exclusive, and the run-time checks cost a diagnosing backend 2,610 instructions a begin+end
    // (10,346 against 7,736: callgrind, 2026-11-25).
    @exclusivity(unchecked) package private(set) var statistics: [CallSiteStatistics] = []
    @exclusivity(unchecked) private var statisticsIndex: [BackgroundTaskCallSite: Int] = [:]
    /// The last call site looked up: call sites repeat, and equal `#fileID` literals compare at once.
    @exclusivity(unchecked) private var lastCallSite: BackgroundTaskCallSite?
    @exclusivity(unchecked) private var lastStatisticsIndex = 0
    /// The most tasks running at once whose assertion was granted.
    @exclusivity(unchecked) package private(set) var highWaterMark = 0
    @exclusivity(unchecked) private var grantedCount = 0
    /// Tasks running now.
    @exclusivity(unchecked) package private(set) var runningCount = 0
    /// Before this clock time no running task can be stale: the stale check returns at once.
    @exclusivity(unchecked) private var nextStaleCheck = -TimeInterval.infinity
    /// The clock's time of the current operation; the owner sets it before each operation.
    @exclusivity(unchecked) package var operationTime: TimeInterval = 0
    /// The observers.
    @exclusivity(unchecked) package private(set) var observers: [ObserverRegistration] = []
    /// The running count already reported as approaching the limit, until it falls back below.
    @exclusivity(unchecked) private var limitApproachReported = false

    /// - Parameters:
    ///   - limit: Warn at 80 % of it; `nil`, or less than 1: never.
    ///   - staleTaskAge: Report tasks older than this; `nil`, negative, NaN or infinite: never.
    package init(limit: Int?, staleTaskAge: TimeInterval?) {
        let limit = limit.flatMap { $0 >= 1 ? $0 : nil }
        self.limit = limit
        self.limitThreshold = limit.map { $0 - $0 / 5 } ?? .max
        self.staleTaskAge = staleTaskAge.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// Whether observers want events (no event values are made otherwise).
    package var observed: Bool { !observers.isEmpty }

    package func addObserver(_ registration: ObserverRegistration) {
        observers.append(registration)
    }

    package func removeObserver(_ registration: ObserverRegistration) {
        observers.removeAll { $0 === registration }
    }

    // MARK: - Recording

    /// A begin call: counts it at its call site (the owner links the entry into its list).
    package func noteBegin(_ entry: TaskListEntry) {
        entry.recorderMarks.statisticsIndex = Int32(truncatingIfNeeded: index(of: entry.callSite))
        statistics[Int(entry.recorderMarks.statisticsIndex)].noteBegin(name: entry.name, at: operationTime)
    }

    /// A begun task was refused before it ran (the owner takes it out of its list).
    package func noteRefused(_ entry: TaskListEntry, error: BackgroundTaskError) {
        statistics[Int(entry.recorderMarks.statisticsIndex)].refused += 1
        emit(.refused(error), for: entry)
    }

    /// A begun task runs from now on (it holds, or waits for, an assertion).
    package func noteRunning(_ entry: TaskListEntry) {
        entry.recorderMarks.isRunning = true
        runningCount += 1
        statistics[Int(entry.recorderMarks.statisticsIndex)].outstanding += 1
        if !limitApproachReported, runningCount >= limitThreshold, let limit {
            limitApproachReported = true
            emit(.limitApproaching(outstanding: runningCount, limit: limit), for: entry)
        }
    }

    /// The running task got its assertion: it counts toward the high-water mark (only granted tasks
    /// do), and, with `announce`, observers hear ``BackgroundTaskEvent/Kind/began``.
    package func noteGranted(_ entry: TaskListEntry) {
        noteGranted(entry, announce: true)
    }

    /// As ``noteGranted(_:)``; observers hear of it only with `announce`.
    package func noteGranted(_ entry: TaskListEntry, announce: Bool) {
        guard entry.recorderMarks.isRunning, !entry.recorderMarks.isGranted else { return }
        entry.recorderMarks.isGranted = true
        grantedCount += 1
        highWaterMark = max(highWaterMark, grantedCount)
        if announce, observed { emit(.began, for: entry) }
    }

    /// The expiry of a running task began while it keeps running: observers hear
    /// ``BackgroundTaskEvent/Kind/expired``. `false` when it is not running or was reported already.
    package func noteExpiring(_ entry: TaskListEntry) -> Bool {
        guard entry.recorderMarks.isRunning, !entry.recorderMarks.expiryReported else { return false }
        entry.recorderMarks.expiryReported = true
        emit(.expired, for: entry)
        return true
    }

    /// The running task finished; with `announce`, observers hear the ending's event. Does nothing
    /// if it is not running. With `unlinking`, the entry also leaves the list (the owner may keep it
    /// linked while a system call for it is still in flight, and unlinks it later).
    package func noteFinished(_ entry: TaskListEntry, as ending: TaskEnding) {
        noteFinished(entry, as: ending, announce: true)
    }

    /// As ``noteFinished(_:as:)``; observers hear of it only with `announce`.
    package func noteFinished(_ entry: TaskListEntry, as ending: TaskEnding, announce: Bool) {
        guard entry.recorderMarks.isRunning else { return }
        entry.recorderMarks.isRunning = false
        runningCount -= 1
        if entry.recorderMarks.isGranted { grantedCount -= 1 }
        ending.count(in: &statistics[Int(entry.recorderMarks.statisticsIndex)])
        statistics[Int(entry.recorderMarks.statisticsIndex)].outstanding -= 1
        if announce, observed { emit(Self.event(for: ending), for: entry) }
        if runningCount < limitThreshold { limitApproachReported = false }
    }

    private static func event(for ending: TaskEnding) -> BackgroundTaskEvent.Kind {
        switch ending {
        case .ended: .ended
        case .expired: .expired
        case .endedBySafetyNet: .endedBySafetyNet
        case .notGranted: .refused(.notGranted)
        case .rescued: .rescued
        }
    }

    /// The expiration handler covering `entry` started: observers hear
    /// ``BackgroundTaskEvent/Kind/expirationHandlerEntered``.
    package func noteExpirationHandlerEntered(_ entry: TaskListEntry) {
        emit(.expirationHandlerEntered, for: entry)
    }

    /// The expiration handler covering `entry` returned after `duration` seconds.
    package func noteExpirationHandlerExited(_ entry: TaskListEntry, duration: TimeInterval) {
        emit(.expirationHandlerExited(duration: duration), for: entry)
    }

    /// `entry` (a coalescing manager's shared assertion) reached the stale age.
    package func noteStale(_ entry: TaskListEntry, age: TimeInterval) {
        emit(.stale(age: age), for: entry)
    }

    /// What a tracer saw happen to an assertion, counted at its call site and told to observers.
    package enum Anomaly {
        case heldAfterHandlers
        case doubleEnd
        case endedAfterRescue
    }

    /// Counts an anomaly of `entry`'s assertion and tells the observers.
    package func note(_ anomaly: Anomaly, for entry: TaskListEntry) {
        switch anomaly {
        case .heldAfterHandlers:
            statistics[Int(entry.recorderMarks.statisticsIndex)].heldAfterHandlers += 1
            emit(.heldAfterExpirationHandlers, for: entry)
        case .doubleEnd:
            statistics[Int(entry.recorderMarks.statisticsIndex)].doubleEnds += 1
            emit(.endedTwice, for: entry)
        case .endedAfterRescue:
            statistics[Int(entry.recorderMarks.statisticsIndex)].endedAfterRescue += 1
            emit(.endedAfterRescue, for: entry)
        }
    }

    /// Reports, once each, running tasks older than the stale age, oldest first. Amortized constant
    /// work: the check resumes where it stopped, and begin times grow along the list.
    @inline(__always)
    package func checkStale(in tasks: inout TaskList) {
        guard staleTaskAge != nil, operationTime >= nextStaleCheck else { return }
        walkStale(&tasks)
    }

    /// The stale check's walk, from where it stopped (the list's cursor).
    private func walkStale(_ tasks: inout TaskList) {
        guard let staleTaskAge else { return }
        var candidate = tasks.cursor.map { $0.next } ?? tasks.head
        while let entry = candidate {
            if entry.recorderMarks.isRunning, !entry.recorderMarks.expiryReported {
                let age = operationTime - entry.beganAt
                guard age >= staleTaskAge - 1e-9 else {  // a timer due at the stale age may round below it
                    // Later tasks are younger: nothing turns stale before this one does.
                    nextStaleCheck = entry.beganAt + staleTaskAge - 1e-9
                    return
                }
                emit(.stale(age: age), for: entry)
            }
            tasks.cursor = entry
            candidate = entry.next
        }
    }

    private func index(of callSite: BackgroundTaskCallSite) -> Int {
        if let lastCallSite, lastCallSite == callSite { return lastStatisticsIndex }
        let index: Int
        if let known = statisticsIndex[callSite] {
            index = known
        } else {
            index = statistics.count
            statistics.append(CallSiteStatistics(callSite: callSite, firstBeganAt: operationTime))
            statisticsIndex[callSite] = index
        }
        lastCallSite = callSite
        lastStatisticsIndex = index
        return index
    }

    // MARK: - Events

    /// Hands an event about `entry` to each observer's buffer, if there are observers: under the
    /// owner's lock, so observers get events in the order the lock saw the operations; the observers
    /// themselves run later, on their own queues.
    package func emit(_ kind: BackgroundTaskEvent.Kind, for entry: TaskListEntry) {
        guard observed else { return }
        for registration in observers {
            registration.enqueue(kind, for: entry, number: entry.number, time: operationTime)
        }
    }

    // MARK: - Reading

    /// The ledger as a report; the only work, with ``outstanding(of:)``, that grows with the number of
    /// running tasks.
    package func report(of tasks: TaskList) -> BackgroundTaskReport {
        var oldest: [Int: TimeInterval] = [:]
        var entry = tasks.head
        while let current = entry {
            if current.recorderMarks.isRunning {
                oldest[Int(current.recorderMarks.statisticsIndex)] = max(
                    oldest[Int(current.recorderMarks.statisticsIndex)] ?? 0, operationTime - current.beganAt)
            }
            entry = current.next
        }
        let callSites = statistics.indices
            .map { index in
                var counters = statistics[index]
                counters.oldestOutstandingAge = oldest[index]
                return counters
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
            outstandingTasks: outstanding(of: tasks)
        )
    }

    /// The running tasks whose assertion was granted, oldest first, as a flight recorder stores them:
    /// at most `limit`, names cut to `nameLength` characters; and how many were left out.
    package func heldTasks(of list: TaskList, limit: Int, nameLength: Int) -> (tasks: [HeldTaskSummary], omitted: Int) {
        var tasks: [HeldTaskSummary] = []
        var omitted = 0
        var entry = list.head
        while let current = entry {
            if current.recorderMarks.isRunning, current.recorderMarks.isGranted {
                if tasks.count < limit {
                    tasks.append(
                        HeldTaskSummary(
                            callSite: current.callSite, name: current.name.map { String($0.prefix(nameLength)) },
                            age: operationTime - current.beganAt, expiryStarted: current.recorderMarks.expiryReported,
                            handlerReturned: current.recorderMarks.expiryHandlerReturned
                        )
                    )
                } else {
                    omitted += 1
                }
            }
            entry = current.next
        }
        return (tasks, omitted)
    }

    /// The running tasks in begin order, with their ages.
    package func outstanding(of list: TaskList) -> [OutstandingBackgroundTask] {
        var tasks: [OutstandingBackgroundTask] = []
        var entry = list.head
        while let current = entry {
            if current.recorderMarks.isRunning {
                tasks.append(
                    OutstandingBackgroundTask(
                        taskNumber: current.number,
                        name: current.name,
                        callSite: current.callSite,
                        age: operationTime - current.beganAt
                    )
                )
            }
            entry = current.next
        }
        return tasks
    }
}

extension TaskEnding {
    /// Counts one more ending of this kind (a switch, not a key path: no key path is built per end).
    func count(in statistics: inout CallSiteStatistics) {
        switch self {
        case .ended: statistics.ended += 1
        case .expired: statistics.expired += 1
        case .endedBySafetyNet: statistics.endedBySafetyNet += 1
        case .notGranted: statistics.notGranted += 1
        case .rescued:
            statistics.expired += 1
            statistics.rescued += 1
        }
    }
}
