import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// One run of the checker: a simulated app whose code begins and ends tasks through the package's
/// faces as the operations say, checked after every step against the package's promise.
@MainActor
final class PromiseWorld {
    /// A task a slot holds.
    private enum Held: Sendable {
        case safe(SafeBackgroundTask)
        case scoped(ScopedBox)
    }

    /// A scoped task, movable between threads.
    private final class ScopedBox: @unchecked Sendable {  // touched by one thread at a time
        var task: ScopedBackgroundTask?

        init(_ task: consuming ScopedBackgroundTask) {
            self.task = consume task
        }

        func end() {
            task.take()?.end()
        }
    }

    /// The app's threads other than the main thread: how many were started and have not returned,
    /// and which of them have begun running.
    private struct Workers: Sendable {
        var started = 0
        var running: Set<ObjectIdentifier> = []
    }

    let setup: PromiseSetup
    let simulator: BackgroundTaskSimulator
    private let diagnostics: DiagnosingBackend
    private let managers: [BackgroundTaskManager]
    private var slots: [Held?] = Array(repeating: nil, count: PromiseOperation.slotCount)
    private var cleanupCalls: [Int: Int] = [:]
    private var nextTaskNumber = 0
    /// The app's other threads running now.
    private let workers = Locked(Workers())
    /// Slots an off-main begin will fill, and the begins that have returned.
    private var reservedSlots: Set<Int> = []
    private let offMainBegins = Locked<[(slot: Int, task: Held?)]>([])
    private var checkedLogCount = 0
    /// An allowed termination ended the run.
    private(set) var stopped = false
    /// The scheduled tasks and continued-processing jobs, over the same simulator.
    private let scheduled: PromiseScheduledTasks

    init(setup: PromiseSetup) {
        self.setup = setup
        let simulator = BackgroundTaskSimulator(configuration: setup.simulator, faults: setup.faults)
        simulator.offMainHandlerTimeout = 5
        // The clock never runs ahead of a thread of the app's (a call held at the gate and released
        // in the middle of a step goes on at once, as on a device).
        simulator.appThreadsSettled = { [workers, simulator] in Self.parked(workers, by: simulator) }
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        self.simulator = simulator
        self.diagnostics = diagnostics
        scheduled = PromiseScheduledTasks(simulator: simulator)
        managers = setup.managers.enumerated().map { index, configuration in
            let backend: any BackgroundTaskBackend = setup.managersOnDiagnostics[index] ? diagnostics : simulator
            return BackgroundTaskManager(backend: backend, configuration: configuration)
        }
    }

    // MARK: - Steps

    /// Whether app code can run now.
    private var appRuns: Bool {
        simulator.appState == .foreground || simulator.appState == .background
    }

    /// Performs one operation (nothing when it cannot apply).
    func perform(_ operation: PromiseOperation) async {
        guard !stopped else { return }
        quiesce()
        switch operation {
        case .enterBackground:
            if simulator.appState == .foreground { simulator.enterBackground() }
        case .enterForeground:
            if simulator.appState == .background || simulator.appState == .suspended { simulator.enterForeground() }
        case .resumeInBackground:
            if simulator.appState == .suspended { simulator.resumeInBackground() }
        case .advance(let seconds):
            if simulator.termination == nil { simulator.advance(by: seconds) }
        case .begin(let slot, let face, let cleanup):
            guard appRuns, isFree(slot) else { return }
            slots[slot] = begin(face, cleanup: cleanup)
        case .beginOffMain(let slot, let face, let cleanup):
            guard appRuns, isFree(slot) else { return }
            reservedSlots.insert(slot)
            let begin = beginner(face, cleanup: cleanup)
            runOnWorker { [offMainBegins] in
                let task = begin()
                offMainBegins.withLock { $0.append((slot, task)) }
            }
        case .end(let slot):
            guard appRuns, let held = take(slot) else { return }
            end(held)
        case .endTwice(let slot):
            guard appRuns, let held = take(slot) else { return }
            end(held)
            if case .safe(let task) = held { task.end() }
        case .endOffMain(let slot):
            guard appRuns, let held = take(slot) else { return }
            runOnWorker { Self.endAnywhere(held) }
        case .drop(let slot):
            guard appRuns else { return }
            _ = take(slot)
        case .endAll(let manager):
            guard appRuns, manager < managers.count else { return }
            managers[manager].endAll()
        case .withTask(let diagnosing, let bodyAdvance):
            guard appRuns else { return }
            let backend: any BackgroundTaskBackend = diagnosing ? diagnostics : simulator
            withBackgroundTask("with", backend: backend) { simulator.advance(by: bodyAdvance) }
        case .withTaskAsync(let diagnosing, let bodyAdvance):
            guard appRuns else { return }
            let backend: any BackgroundTaskBackend = diagnosing ? diagnostics : simulator
            // In a task of its own: an expiry cancels the body's task, which must not be the caller's.
            // Other main-actor work may run before that task starts (a suspended app runs no code, so
            // the state is checked again there, with no suspension point before the begin).
            let simulator = simulator
            await Task { @MainActor in
                guard simulator.appState == .foreground || simulator.appState == .background else { return }
                await withBackgroundTask("with async", backend: backend) {
                    simulator.advance(by: bodyAdvance)
                    await Task.yield()
                }
            }
            .value
        case .setFaults(let faults):
            simulator.faults = faults
        case .releaseHeldCalls:
            // A suspended app's threads do not run: what they hold lands once the app runs again.
            if appRuns { simulator.releaseHeldCalls() }
        case .launchScheduled(let callback):
            scheduled.launch(callback: callback)
        case .finishScheduled(let success, let callback):
            if appRuns { scheduled.finish(success: success, callback: callback) }
        case .dropScheduled:
            if appRuns { scheduled.drop() }
        case .userStartsUsingDevice:
            if simulator.termination == nil { simulator.userStartsUsingDevice() }
        case .startContinuedJob:
            scheduled.startContinuedJob()
        case .stopContinuedJob:
            if simulator.termination == nil { scheduled.stopContinuedJob() }
        }
    }

    private func isFree(_ slot: Int) -> Bool {
        slots[slot] == nil && !reservedSlots.contains(slot)
    }

    private func take(_ slot: Int) -> Held? {
        defer { slots[slot] = nil }
        return slots[slot]
    }

    private func end(_ held: Held) {
        Self.endAnywhere(held)
    }

    private nonisolated static func endAnywhere(_ held: Held) {
        switch held {
        case .safe(let task): task.end()
        case .scoped(let box): box.end()
        }
    }

    private func begin(_ face: PromiseOperation.Face, cleanup: PromiseOperation.Cleanup) -> Held? {
        beginner(face, cleanup: cleanup)()
    }

    /// What begins a task through `face`, on any thread.
    private func beginner(
        _ face: PromiseOperation.Face,
        cleanup: PromiseOperation.Cleanup
    ) -> @Sendable () -> Held? {
        let number = nextTaskNumber
        nextTaskNumber += 1
        let onExpiration: @MainActor @Sendable () -> Void = { [weak self] in self?.cleanupRan(number, cleanup) }
        let name = "task \(number)"
        switch face {
        case .safe(let diagnosing):
            let backend: any BackgroundTaskBackend = diagnosing ? diagnostics : simulator
            return { .safe(SafeBackgroundTask.begin(name, backend: backend, onExpiration: onExpiration)) }
        case .scoped(let diagnosing):
            let backend: any BackgroundTaskBackend = diagnosing ? diagnostics : simulator
            return { .scoped(ScopedBox(ScopedBackgroundTask(name, backend: backend, onExpiration: onExpiration))) }
        case .manager(let index):
            guard index < managers.count else { return { nil } }
            let manager = managers[index]
            return { (try? manager.beginTask(name, onExpiration: onExpiration)).map(Held.safe) }
        }
    }

    /// Runs app code on a thread of its own, not waited for.
    private func runOnWorker(_ work: @escaping @Sendable () -> Void) {
        workers.withLock { $0.started += 1 }
        Thread { [workers] in
            let thread = ObjectIdentifier(Thread.current)
            workers.withLock { _ = $0.running.insert(thread) }
            work()
            workers.withLock {
                $0.running.remove(thread)
                $0.started -= 1
            }
        }
        .start()
    }

    /// Moves the tasks of off-main begins that have returned into their slots.
    private func collectOffMainBegins() {
        let returned = offMainBegins.withLock { begins in
            let returned = begins
            begins.removeAll()
            return returned
        }
        for begin in returned {
            reservedSlots.remove(begin.slot)
            slots[begin.slot] = begin.task
        }
    }

    /// Lets the app's other threads finish what they are doing, or park (at the gate of
    /// `.holdOffMainCalls`, or frozen while the app is suspended), before the next step: their begins
    /// and ends take microseconds on a device, while the next step may move the virtual clock by
    /// seconds. Meanwhile the main thread runs what they send to the main actor (an engine's cleanup),
    /// without moving the clock.
    private func quiesce() {
        let deadline = Date(timeIntervalSinceNow: 0.5)
        while !workersAreParked(), Date() < deadline {
            if simulator.termination == nil { simulator.advance(by: 0) }
            usleep(50)
        }
        collectOffMainBegins()
    }

    /// Whether every thread of the app's is done or held by the simulator.
    private func workersAreParked() -> Bool {
        Self.parked(workers, by: simulator)
    }

    private nonisolated static func parked(_ workers: Locked<Workers>, by simulator: BackgroundTaskSimulator) -> Bool {
        let workers = workers.withLock { $0 }
        guard workers.started > 0 else { return true }
        return workers.running.count == workers.started && workers.running.isSubset(of: simulator.parkedThreadIDs)
    }

    private func cleanupRan(_ number: Int, _ cleanup: PromiseOperation.Cleanup) {
        cleanupCalls[number, default: 0] += 1
        switch cleanup {
        case .none:
            break
        case .spend:
            simulator.spend(0.1)
        case .beginAndEndAnother:
            SafeBackgroundTask.begin("cleanup of task \(number)", backend: simulator).end()
        case .endSlot(let slot):
            if let held = take(slot) { end(held) }
        case .endAll(let manager):
            if manager < managers.count { managers[manager].endAll() }
        }
    }

    // MARK: - Checks

    /// The first broken promise in what happened since the last check, if any.
    func check() -> String? {
        let log = simulator.log
        defer { checkedLogCount = log.count }
        for entry in log.dropFirst(checkedLogCount) {
            switch entry.event {
            case .console(.cannotEndTask(let identifier)):
                return "the system got a second end of \(identifier) (\"Can't end BackgroundTask\")"
            case .terminated(let termination):
                guard isUnavoidable(termination) else {
                    return "terminated \(termination.code) (\(termination.reason))"
                }
                stopped = true
            case .terminationPreventedByDebugger(let termination):
                guard isUnavoidable(termination) else {
                    return "would have been terminated \(termination.code) (\(termination.reason))"
                }
            case .misuse(let misuse):
                return "misuse: \(misuse)"
            default:
                if let violation = PromiseScheduledTasks.violation(in: entry.event) { return violation }
            }
        }
        if let (task, calls) = cleanupCalls.first(where: { $0.value > 1 }) {
            return "the cleanup of task \(task) ran \(calls) times"
        }
        return nil
    }

    /// The terminations the package cannot prevent, each for an assertion no handler can reach:
    /// one the system gave no handler (`.noHandlerWhenLittleTimeLeft`: begun with under 5 s left) that
    /// its owner did not end in time; and one begun too late: its begin reached the system only once
    /// the handlers of an expiry with no time left were being called (`expirationLead = 0`; a begin
    /// held off the main thread until then), and the system looked before the app ran again (within
    /// that expiry's handler time). Nothing can end an assertion in no time.
    private func isUnavoidable(_ termination: SimulatedTermination) -> Bool {
        guard termination.reason == .assertionsHeldAfterExpiration, !termination.heldAssertions.isEmpty else {
            return false
        }
        let history = simulator.assertionHistory
        let lastExpiry = simulator.log.last { $0.event == .backgroundTimeExpired }?.time
        let configuration = simulator.configuration
        return termination.heldAssertions.allSatisfy { held in
            guard let life = history.first(where: { $0.assertion.identifier == held.identifier }) else { return false }
            let begunTooLate =
                configuration.expirationLead == 0 && lastExpiry.map { life.assertion.createdAt >= $0 } ?? false
                && termination.time - life.assertion.createdAt <= configuration.handlerTimeBudget
            return !life.hasExpirationHandler || begunTooLate
        }
    }

    /// Ends everything the app still holds and lets timers run, then checks that each assertion was
    /// ended exactly once.
    func finish() async -> String? {
        // No more holding; a thread that read the fault before this may still reach the gate. The app
        // runs again first, if suspended: suspended threads do not reach the system.
        simulator.faults = simulator.faults.filter { if case .holdOffMainCalls = $0 { false } else { true } }
        if simulator.appState == .suspended { simulator.enterForeground() }
        let deadline = Date(timeIntervalSinceNow: 5)
        while workers.withLock({ $0.started }) > 0 {
            guard Date() < deadline else { return "a begin or end made on another thread never returned" }
            simulator.releaseHeldCalls()
            // Handlers those calls get may need the main thread: it runs them without moving the clock.
            if simulator.termination == nil { simulator.advance(by: 0) }
            usleep(1_000)
        }
        collectOffMainBegins()
        if let violation = check() { return violation }
        guard simulator.termination == nil else { return nil }
        if simulator.appState == .suspended { simulator.enterForeground() }
        if let violation = await scheduled.finish() { return violation }
        if let violation = check() { return violation }
        for slot in slots.indices {
            if let held = take(slot) { end(held) }
        }
        for manager in managers { manager.endAll() }
        simulator.advance(by: 15)
        if let violation = check() { return violation }
        guard simulator.termination == nil else { return nil }
        if let held = simulator.outstanding.first {
            return "an assertion is still held after everything was ended: \(held)"
        }
        var ends: [BackgroundTaskIdentifier: Int] = [:]
        var begun: [BackgroundTaskIdentifier] = []
        for event in simulator.events {
            switch event {
            case .began(let identifier, _): begun.append(identifier)
            case .ended(let identifier): ends[identifier, default: 0] += 1
            default: continue
            }
        }
        if let identifier = begun.first(where: { ends[$0] != 1 }) {
            return "assertion \(identifier) was ended \(ends[identifier] ?? 0) times"
        }
        return nil
    }
}
