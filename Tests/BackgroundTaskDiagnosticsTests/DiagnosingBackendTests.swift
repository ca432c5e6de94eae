import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import TestSupport
import Testing

private func site(_ line: Int, _ function: String = "work()") -> BackgroundTaskCallSite {
    BackgroundTaskCallSite(fileID: "App/Work.swift", line: line, function: function)
}

private func counters(_ report: BackgroundTaskReport, line: Int) -> CallSiteStatistics? {
    report.callSites.first { $0.callSite.line == line }
}

@MainActor
struct DiagnosingBackendTests {
    @Test func tasksOfEveryFaceBegunThroughItAppearInOneReportByCallSite() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        var managerConfiguration = BackgroundTaskManager.Configuration()
        managerConfiguration.coalescesAssertions = false
        try withBackgroundTaskBackend(diagnostics) {
            SafeBackgroundTask.begin("Safe", fileID: "App/Work.swift", line: 1, function: "work()").end()
            do {
                let scoped = ScopedBackgroundTask("Scoped", fileID: "App/Work.swift", line: 2, function: "work()")
                _ = scoped
            }
            withBackgroundTask("Closure", fileID: "App/Work.swift", line: 3, function: "work()") {}
            let inManager = BackgroundTaskManager(configuration: managerConfiguration)
            try inManager.beginTask("Managed", fileID: "App/Work.swift", line: 4, function: "work()").end()
        }
        simulator.advance(by: 1)

        let report = diagnostics.report()
        #expect(report.callSites.map(\.callSite) == [site(1), site(2), site(3), site(4)])
        #expect(report.callSites.map(\.names) == [["Safe"], ["Scoped"], ["Closure"], ["Managed"]])
        #expect(report.callSites.allSatisfy { $0.begun == 1 && $0.ended == 1 && $0.outstanding == 0 })
        #expect(report.outstandingTasks.isEmpty)
        #expect(simulator.events.filter { if case .began = $0 { true } else { false } }.count == 4)
        #expect(simulator.outstanding.isEmpty)
    }

    @Test func rawCallsCountUnderUnknownUnlessTheyPassTheirCallSite() {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let raw = diagnostics.beginBackgroundTask(named: "Raw", expirationHandler: nil)
        let sited = diagnostics.beginBackgroundTask(named: "Sited", callSite: site(9), expirationHandler: nil)
        if let raw { diagnostics.endBackgroundTask(raw) }

        let report = diagnostics.report()
        #expect(report.callSites.map(\.callSite) == [.unknown, site(9)])
        #expect(report.callSites.map(\.ended) == [1, 0])
        #expect(report.outstandingTasks.map(\.callSite) == [site(9)])
        #expect(simulator.outstanding.map(\.callSite) == [site(9)])  // passed on to the simulator
        if let sited { diagnostics.endBackgroundTask(sited) }
    }

    @Test func anExpiryIsReportedAndTheHandlerTimedAndCountedAsExpiredOnceEnded() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin(
            "Upload",
            backend: diagnostics,
            onExpiration: { simulator.spend(2) },
            fileID: "App/Work.swift",
            line: 5,
            function: "work()"
        )
        simulator.advance(by: 40)
        diagnostics.waitForObservers()

        #expect(task.state == .expired)
        // An expired assertion is not reported stale on top.
        #expect(log.kinds == [.began, .expired, .expirationHandlerEntered, .expirationHandlerExited(duration: 2)])
        #expect(log.all.map(\.time) == [0, 26, 26, 28])  // handlers at 26 s of 30
        let statistics = try #require(counters(diagnostics.report(), line: 5))
        #expect((statistics.begun, statistics.expired, statistics.ended, statistics.outstanding) == (1, 1, 0, 0))
        #expect(simulator.termination == nil)
    }

    @Test func anExpiredAssertionNobodyEndsStaysOutstandingUntilTheSystemKillsTheApp() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        simulator.enterBackground()
        _ = diagnostics.beginBackgroundTask(named: "Leaky", callSite: site(6)) {}  // ends nothing
        simulator.advance(by: 60)
        diagnostics.waitForObservers()

        _ = try simulator.expectTermination(.watchdogTimeout)
        #expect(log.kinds.contains(.expired))
        #expect(diagnostics.outstandingTasks.map(\.callSite) == [site(6)])
        let statistics = try #require(counters(diagnostics.report(), line: 6))
        #expect((statistics.expired, statistics.outstanding) == (0, 1))
    }

    @Test func aMissingHandlerIsPassedOnAsMissing() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        simulator.enterBackground()
        _ = diagnostics.beginBackgroundTask(named: "No handler", expirationHandler: nil)
        simulator.advance(by: 60)
        let direct = BackgroundTaskSimulator()
        direct.enterBackground()
        _ = direct.beginBackgroundTask(named: "No handler", expirationHandler: nil)
        direct.advance(by: 60)
        #expect(simulator.events == direct.events)
    }

    @Test func aTaskLeftToTheSafetyNetIsCountedAsALeakCaught() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        var forgotten: SafeBackgroundTask? = SafeBackgroundTask.begin(
            "Forgotten",
            backend: diagnostics,
            fileID: "App/Work.swift",
            line: 7,
            function: "work()"
        )
        _ = forgotten
        forgotten = nil
        diagnostics.waitForObservers()

        #expect(log.kinds == [.began, .endedBySafetyNet])
        let statistics = try #require(counters(diagnostics.report(), line: 7))
        #expect((statistics.endedBySafetyNet, statistics.ended, statistics.outstanding) == (1, 0, 0))
        #expect(simulator.outstanding.isEmpty)
    }

    @Test func aBeginTheSystemRefusesIsCountedAsNotGranted() throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        let task = SafeBackgroundTask.begin("Refused", backend: diagnostics, fileID: "F", line: 8, function: "f()")
        diagnostics.waitForObservers()

        #expect(task.state == .notGranted(.notGranted))
        #expect(log.kinds == [.refused(.notGranted)])
        let statistics = try #require(counters(diagnostics.report(), line: 8))
        #expect((statistics.begun, statistics.notGranted, statistics.outstanding) == (1, 1, 0))
    }

    @Test func theStaleEventComesWithTheSimulatorsThirtySecondWarningAndNamesTheCallSite() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        let old = diagnostics.beginBackgroundTask(named: "Old", callSite: site(10)) {}
        simulator.advance(by: 29)
        diagnostics.checkStaleTasks()
        diagnostics.waitForObservers()
        #expect(!log.kinds.contains { if case .stale = $0 { true } else { false } })

        simulator.advance(by: 1)
        diagnostics.checkStaleTasks()
        diagnostics.waitForObservers()
        let stale = try #require(log.all.last)
        #expect(stale.kind == .stale(age: 30))
        #expect(stale.callSite == site(10))
        #expect(stale.time == 30)
        #expect(
            simulator.log.contains { entry in
                if case .console(.taskCreatedTooLongAgo) = entry.event { entry.time == 30 } else { false }
            }
        )
        if let old { diagnostics.endBackgroundTask(old) }
    }

    @Test func theLimitWarningComesAtEightyPercentOfTheConfiguredLimit() {
        var configuration = DiagnosingBackend.Configuration()
        configuration.assertionLimit = 5
        let diagnostics = DiagnosingBackend(wrapping: BackgroundTaskSimulator(), configuration: configuration)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        let identifiers = (1...4).compactMap { diagnostics.beginBackgroundTask(named: "\($0)", callSite: site($0)) {} }
        diagnostics.waitForObservers()

        #expect(log.kinds == [.began, .began, .began, .limitApproaching(outstanding: 4, limit: 5), .began])
        #expect(log.all[3].callSite == site(4))
        #expect(diagnostics.report().outstandingHighWaterMark == 4)
        identifiers.forEach(diagnostics.endBackgroundTask)
        #expect(diagnostics.report().outstandingHighWaterMark == 4)
        #expect(diagnostics.outstandingTasks.isEmpty)
    }

    @Test func anAssertionEndedByAHandlerRunningInsideBeginIsNotLeftOutstanding() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Early", backend: diagnostics, fileID: "F", line: 11, function: "f()")
        simulator.advance(by: 1)

        #expect(task.state == .expired)
        #expect(diagnostics.outstandingTasks.isEmpty)
        #expect(simulator.outstanding.isEmpty)
        let statistics = try #require(counters(diagnostics.report(), line: 11))
        #expect((statistics.expired, statistics.outstanding) == (1, 0))
    }

    @Test(arguments: [SimulatorFault.handlerOffMainActor, .handlerTwice, .handlerBeforeBeginReturns])
    func aMisbehavingSystemHandlerIsReportedOnceAndLeavesTheLedgerBalanced(fault: SimulatorFault) async throws {
        let simulator = BackgroundTaskSimulator(faults: [fault])
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Odd", backend: diagnostics, fileID: "F", line: 15, function: "f()")
        simulator.advance(by: 31)
        await drainMainActor()
        task.end()
        diagnostics.waitForObservers()

        try simulator.expectEveryAssertionEndedOnce()
        #expect(log.kinds.filter { $0 == .expired }.count == 1)
        // `began`, if it comes at all, comes once and before the expiry.
        #expect(log.kinds.filter { $0 == .began }.count <= 1)
        #expect((log.kinds.firstIndex(of: .began) ?? -1) < (log.kinds.firstIndex(of: .expired) ?? -1))
        let observer = UnifiedLoggingObserver(writer: NullLogWriter())
        for event in log.all { observer.backgroundTaskEventOccurred(event) }
        #expect(observer.openIntervalCount == 0)
        #expect(diagnostics.outstandingTasks.isEmpty)
        let statistics = try #require(counters(diagnostics.report(), line: 15))
        #expect((statistics.begun, statistics.expired, statistics.ended, statistics.outstanding) == (1, 1, 0, 0))
    }

    @Test func aCoalescingManagersLeakIsReportedAsCaughtByTheSafetyNetOnceTheLingerIsOver() throws {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        // Coalescing, 0.5 s linger on the virtual clock.
        let manager = BackgroundTaskManager(backend: diagnostics, diagnostics: .init())
        var task: SafeBackgroundTask? = try manager.beginTask("Forgotten", fileID: "F", line: 16, function: "f()")
        _ = task
        task = nil
        simulator.advance(by: 0.4)
        #expect(simulator.outstanding.count == 1)  // the shared assertion lingers
        simulator.advance(by: 0.2)
        #expect(simulator.outstanding.isEmpty)
        let statistics = try #require(counters(diagnostics.report(), line: 16))
        #expect((statistics.endedBySafetyNet, statistics.ended, statistics.outstanding) == (1, 0, 0))
        #expect(manager.diagnostics!.report().callSites.first?.endedBySafetyNet == 1)
    }

    @Test func endingAForeignOrEndedIdentifierChangesNoCounter() {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let identifier = diagnostics.beginBackgroundTask(named: "Once", callSite: site(12), expirationHandler: nil)
        if let identifier {
            diagnostics.endBackgroundTask(identifier)
            diagnostics.endBackgroundTask(identifier)  // the simulator logs iOS's "Can't end"
        }
        diagnostics.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 999))
        #expect(diagnostics.report().callSites.map(\.ended) == [1])
        #expect(simulator.consoleMessages.filter { $0.text.contains("Can't end") }.count == 2)
    }

    @Test func anObserverThatBeginsAndEndsTasksDoesNotDeadlock() {
        let diagnostics = DiagnosingBackend(wrapping: BackgroundTaskSimulator())
        let log = EventLog()
        diagnostics.addObserver { event in
            log.record(event)
            if event.kind == .began, event.name == "Outer",
                let inner = diagnostics.beginBackgroundTask(named: "Inner", callSite: site(14), expirationHandler: nil)
            {
                diagnostics.endBackgroundTask(inner)
            }
        }
        let outer = SafeBackgroundTask.begin("Outer", backend: diagnostics, fileID: "F", line: 13, function: "f()")
        outer.end()
        diagnostics.waitForObservers()
        diagnostics.waitForObservers()  // the inner events were queued by the first delivery
        #expect(log.names.filter { $0 == "Inner" }.count == 2)
        #expect(diagnostics.outstandingTasks.isEmpty)
    }
}
