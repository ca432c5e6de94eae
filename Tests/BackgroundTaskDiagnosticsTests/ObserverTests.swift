import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

@MainActor
struct ObserverTests {
    @Test(arguments: [false, true])
    func observersSeeEveryWayATaskEndsInOrderWithCallSitesAndTimes(coalescing: Bool) throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator) {
            $0.coalescesAssertions = coalescing
            $0.maximumOutstandingTasks = 10
        }
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        try manager.beginTask("Ended", fileID: "App/A.swift", line: 3, function: "a()").end()
        var forgotten: SafeBackgroundTask? = try manager.beginTask("Forgotten")
        _ = forgotten
        forgotten = nil
        simulator.advance(by: 2)
        let expiring = try manager.beginTask("Expiring")
        simulator.enterBackground()
        simulator.advance(by: 40)
        #expect(expiring.state == .expired)
        simulator.faults = [.notGranted(callingHandler: false)]
        #expect(throws: BackgroundTaskError.notGranted) { try manager.beginTask("Refused") }
        manager.diagnostics!.waitForObservers()

        #expect(
            log.kinds == [
                .began, .ended, .began, .endedBySafetyNet, .began, .expired, .expirationHandlerEntered,
                .expirationHandlerExited(duration: 0), .refused(.notGranted),
            ]
        )
        #expect(
            log.names == [
                "Ended", "Ended", "Forgotten", "Forgotten", "Expiring", "Expiring", "Expiring", "Expiring", "Refused",
            ]
        )
        #expect(log.all.first?.callSite == BackgroundTaskCallSite(fileID: "App/A.swift", line: 3, function: "a()"))
        #expect(log.all.map(\.time) == [0, 0, 0, 0, 2, 28, 28, 28, 42])  // handlers at 26 s of 30
    }

    @Test func theLimitApproachingEventComesOncePerCrossingOfEightyPercent() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator) { $0.maximumOutstandingTasks = 5 }
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        var tasks = try (1...5).map { try manager.beginTask("Job \($0)") }
        tasks.removeLast().end()
        tasks.removeLast().end()  // 3 running: below 80 % again
        tasks.append(try manager.beginTask("Again"))  // 4 running: crossing again
        manager.diagnostics!.waitForObservers()
        let approaching = log.kinds.filter { if case .limitApproaching = $0 { true } else { false } }
        #expect(
            approaching == [.limitApproaching(outstanding: 4, limit: 5), .limitApproaching(outstanding: 4, limit: 5)])
        for task in tasks { task.end() }
    }

    @Test func anObserverMayBeginAndEndTasksWithoutDeadlock() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let log = EventLog()
        manager.diagnostics!.addObserver { event in
            log.record(event)
            if event.kind == .began, event.name == "Outer" {
                try? manager.beginTask("From the observer").end()
            }
        }
        try manager.beginTask("Outer").end()
        manager.diagnostics!.waitForObservers()
        manager.diagnostics!.waitForObservers()  // the observer's own operations were queued behind the first batch
        #expect(log.names.contains("From the observer"))
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aBlockedObserverDoesNotBlockBeginOrEnd() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let release = DispatchSemaphore(value: 0)
        let log = EventLog()
        manager.diagnostics!.addObserver { event in
            release.wait()
            log.record(event)
        }
        for index in 1...20 { try manager.beginTask("Job \(index)").end() }  // returns at once
        #expect(log.all.isEmpty)
        for _ in 1...40 { release.signal() }
        manager.diagnostics!.waitForObservers()
        #expect(log.all.count == 40)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func eachCleanupIsBracketedByHandlerEnteredAndExitedWithItsDuration() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        simulator.enterBackground()
        let first = try manager.beginTask("Close database") { simulator.spend(2) }
        let second = try manager.beginTask("Flush log") { simulator.spend(0.5) }
        simulator.advance(by: 40)
        manager.diagnostics!.waitForObservers()
        let handlerEvents = log.all.filter { event in
            switch event.kind {
            case .expirationHandlerEntered, .expirationHandlerExited: true
            default: false
            }
        }
        #expect(
            handlerEvents.map(\.kind) == [
                .expirationHandlerEntered, .expirationHandlerExited(duration: 2), .expirationHandlerEntered,
                .expirationHandlerExited(duration: 0.5),
            ]
        )
        #expect(handlerEvents.map(\.name) == ["Close database", "Close database", "Flush log", "Flush log"])
        #expect(handlerEvents.map(\.time) == [26, 28, 28, 28.5])  // handlers at 26 s of 30
        try simulator.expectEveryAssertionEndedOnce()
        first.end()
        second.end()
    }

    // MARK: - Stale tasks

    @Test func withoutAVirtualClockATaskOverTheStaleAgeIsReportedOnceOnTheNextBeginOrEnd() throws {
        // A backend with no clock of its own, as on a device: no timer, only begins, ends and checks.
        let clock = Locked<TimeInterval>(0)
        let manager = BackgroundTaskManager(
            backend: UnlimitedBackend(),
            configuration: BackgroundTaskManager.Configuration(),
            schedule: nil,
            now: { clock.value },
            diagnostics: .init()
        )
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        let old = try manager.beginTask("Old", fileID: "App/Old.swift", line: 9, function: "old()")
        clock.withLock { $0 += 10 }
        let young = try manager.beginTask("Young")
        clock.withLock { $0 += 25 }  // Old is 35 s old, Young 25 s
        manager.diagnostics!.waitForObservers()
        #expect(!log.kinds.contains { if case .stale = $0 { true } else { false } })
        try manager.beginTask("Trigger").end()
        try manager.beginTask("Again").end()  // Old is not reported twice
        manager.diagnostics!.waitForObservers()
        let stale = log.all.filter { if case .stale = $0.kind { true } else { false } }
        #expect(stale.map(\.kind) == [.stale(age: 35)])
        #expect(stale.first?.callSite == BackgroundTaskCallSite(fileID: "App/Old.swift", line: 9, function: "old()"))
        clock.withLock { $0 += 10 }
        manager.diagnostics!.checkStaleTasks()  // Young is 35 s old now
        manager.diagnostics!.waitForObservers()
        #expect(log.all.filter { if case .stale = $0.kind { true } else { false } }.map(\.name) == ["Old", "Young"])
        old.end()
        young.end()
    }

    @Test func theStaleEventComesWhenTheSimulatorPrintsIOSsThirtySecondWarningWithoutATimerOfTheApps() throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = false  // the task's own assertion is the one iOS warns about
        // No clock or timer of the test's.
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration, diagnostics: .init())
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        let task = try manager.beginTask("Saving library", fileID: "App/Library.swift", line: 7, function: "save()")
        simulator.advance(by: 12.25)
        #expect(manager.outstandingTasks.map(\.age) == [12.25])  // ages on the virtual clock
        simulator.advance(by: 27.75)
        manager.diagnostics!.waitForObservers()
        let warning = simulator.log.first {
            if case .console(.taskCreatedTooLongAgo) = $0.event { true } else { false }
        }
        let stale = log.all.first { if case .stale = $0.kind { true } else { false } }
        #expect(warning?.time == 30)
        #expect(stale?.time == warning?.time)
        #expect(stale?.callSite.description == "App/Library.swift:7 (save())")
        task.end()
    }

    @Test func aTaskEndedInTimeIsNeverStale() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let log = EventLog()
        manager.diagnostics!.addObserver { log.record($0) }
        try manager.beginTask("Quick").end()
        simulator.advance(by: 100)
        manager.diagnostics!.checkStaleTasks()
        manager.diagnostics!.waitForObservers()
        #expect(!log.all.contains { if case .stale = $0.kind { true } else { false } })
    }
}
