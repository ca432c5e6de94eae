import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Every configuration value has a documented meaning, never a trap; and diagnostics over a real
/// backend run no timer per begin. Each failed on the engine before the rebuild.
@MainActor
struct ConfigurationValueTests {
    // MARK: - Item 8: extreme values

    @Test func noCapAtAllIsAccepted() throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.maximumOutstandingTasks = .max
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        let tasks = try (0..<3).map { try manager.beginTask("Task \($0)") }
        #expect(tasks.allSatisfy { $0.state == .running })
        for task in tasks { task.end() }
    }

    @Test(arguments: [0, -1, Int.min])
    func aCapOfZeroOrLessRefusesEveryTask(_ cap: Int) {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.maximumOutstandingTasks = cap
        let manager = BackgroundTaskManager(backend: BackgroundTaskSimulator(), configuration: configuration)
        #expect(throws: BackgroundTaskError.limitReached(limit: 0)) { try manager.beginTask("Refused") }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, 0, .greatestFiniteMagnitude])
    func everyTimeValueHasAMeaning(_ value: Double) throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.linger = value
        configuration.sharedAssertionRenewalAge = value
        configuration.minimumTimeRemaining = value
        let manager = BackgroundTaskManager(
            backend: simulator, configuration: configuration, diagnostics: .init(staleTaskAge: value))
        let task = try manager.beginTask("In the foreground")  // the time guard only acts in the background
        simulator.advance(by: 30)
        task.end()
        simulator.advance(by: BackgroundTaskManager.Configuration.maximumLinger + 1)
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func anInfiniteTimeGuardRefusesEveryTaskInTheBackground() {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.minimumTimeRemaining = .infinity
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        let holder = SafeBackgroundTask.begin("Holder", backend: simulator)
        simulator.enterBackground()
        #expect(throws: BackgroundTaskError.self) { try manager.beginTask("Refused") }
        holder.end()
    }

    @Test(arguments: [Int.max, 0, -5])
    func everyAssertionLimitIsAccepted(_ limit: Int) throws {
        var configuration = DiagnosingBackend.Configuration()
        configuration.assertionLimit = limit
        let diagnostics = DiagnosingBackend(wrapping: BackgroundTaskSimulator(), configuration: configuration)
        let identifier = try #require(diagnostics.beginBackgroundTask(named: "Limit", expirationHandler: nil))
        diagnostics.endBackgroundTask(identifier)
        #expect(diagnostics.report().callSites.first?.ended == 1)
    }

    @Test func aTaskReleasedAfterAnEnormousAgeIsReportedWithoutATrap() {
        let simulator = BackgroundTaskSimulator()
        var task: SafeBackgroundTask? = SafeBackgroundTask.begin("Forgotten", backend: simulator)
        simulator.advance(by: 1e300)  // in the foreground: nothing expires
        #expect(task?.state == .running)
        task = nil  // released while running: the safety net ends it and reports its age
        #expect(simulator.outstanding.isEmpty)
    }

    @Test(arguments: ["", "   ", "\n\t", "\u{2003}", String(repeating: "é", count: 1000), "Ünïcode ✓"])
    func oddNamesAreAcceptedAndNormalized(_ name: String) {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin(name, backend: simulator)
        let named = simulator.outstanding.first?.name
        if name.allSatisfy(\.isWhitespace) {
            #expect(named == nil)
        } else {
            #expect(named.map(\.count) == min(name.count, 256))
        }
        task.end()
    }

    // MARK: - Item 5: diagnostics over a real backend

    @Test func aDiagnosingBackendHasTheClockOfWhatItWraps() {
        #expect(BackendClock.of(DiagnosingBackend(wrapping: UnlimitedBackend())).isVirtual == false)
        #expect(BackendClock.of(DiagnosingBackend(wrapping: BackgroundTaskSimulator())).isVirtual == true)
    }

    @Test func aManagerOverARealClockSchedulesOneLingerTimerAtATime() throws {
        let timers = Locked(0)
        let manager = BackgroundTaskManager(
            backend: DiagnosingBackend(wrapping: UnlimitedBackend()),
            configuration: BackgroundTaskManager.Configuration(),
            schedule: { _, _ in timers.withLock { $0 += 1 } }  // never fires: every end finds one pending
        )
        for index in 0..<1000 {
            try manager.beginTask("Pair \(index)").end()
        }
        #expect(timers.value <= 2)  // the linger timer, and the renewal check
    }
}
