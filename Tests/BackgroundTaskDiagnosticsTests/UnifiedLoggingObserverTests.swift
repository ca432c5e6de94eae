import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Testing

/// A writer that records what the observer asks of `os`, in order; intervals are numbered.
private final class RecordingLogWriter: UnifiedLogWriting {
    enum Call: Equatable {
        case log(BackgroundTaskLogLevel, String, name: String?, BackgroundTaskLogPrivacy)
        case begin(Int, name: String?, BackgroundTaskLogPrivacy)
        case event(BackgroundTaskSignpostEvent, Int)
        case end(Int, BackgroundTaskSignpostOutcome)
    }

    private let recorded = Locked<[Call]>([])

    var calls: [Call] { recorded.value }
    var intervalCalls: [Call] { calls.filter { if case .log = $0 { false } else { true } } }
    var logs: [Call] { calls.filter { if case .log = $0 { true } else { false } } }

    func log(_ level: BackgroundTaskLogLevel, _ text: String, taskName: String?, privacy: BackgroundTaskLogPrivacy) {
        recorded.withLock { $0.append(.log(level, text, name: taskName, privacy)) }
    }

    func beginInterval(named taskName: String?, privacy: BackgroundTaskLogPrivacy) -> Int {
        recorded.withLock { calls in
            let interval = calls.filter { if case .begin = $0 { true } else { false } }.count + 1
            calls.append(.begin(interval, name: taskName, privacy))
            return interval
        }
    }

    func emitEvent(_ event: BackgroundTaskSignpostEvent, in interval: Int) {
        recorded.withLock { $0.append(.event(event, interval)) }
    }

    func endInterval(_ interval: Int, outcome: BackgroundTaskSignpostOutcome) {
        recorded.withLock { $0.append(.end(interval, outcome)) }
    }
}

private func begin(_ manager: BackgroundTaskManager, _ name: String, line: Int = 7) throws -> SafeBackgroundTask {
    try manager.beginTask(name, fileID: "App/Sync.swift", line: line, function: "sync()")
}

@MainActor
struct UnifiedLoggingObserverTests {
    @Test func aTaskThatEndsIsOneIntervalAndTwoDebugMessagesWithItsCallSite() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let writer = RecordingLogWriter()
        manager.diagnostics!.addObserver(UnifiedLoggingObserver(writer: writer))
        let task = try begin(manager, "Sync inbox")
        simulator.advance(by: 2.5)
        task.end()
        manager.diagnostics!.waitForObservers()

        #expect(
            writer.calls == [
                .begin(1, name: "Sync inbox", .private),
                .log(.debug, "began; begun at App/Sync.swift:7 (sync())", name: "Sync inbox", .private),
                .end(1, .ended),
                .log(.debug, "ended after 2.5 s; begun at App/Sync.swift:7 (sync())", name: "Sync inbox", .private),
            ]
        )
    }

    @Test func anExpiryMarksTheIntervalAndEndsItWhenTheHandlerReturns() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let writer = RecordingLogWriter()
        manager.diagnostics!.addObserver(UnifiedLoggingObserver(writer: writer))
        simulator.enterBackground()
        let task = try manager.beginTask("Upload") { simulator.spend(1.5) }
        simulator.advance(by: 40)
        manager.diagnostics!.waitForObservers()

        #expect(task.state == .expired)
        #expect(
            writer.intervalCalls == [
                .begin(1, name: "Upload", .private), .event(.expired, 1), .event(.expirationHandlerEntered, 1),
                .event(.expirationHandlerExited, 1), .end(1, .expired),
            ]
        )
        let levels = writer.logs.compactMap { if case .log(let level, _, _, _) = $0 { level } else { nil } }
        #expect(levels == [.debug, .error, .info, .info])
        let infos = writer.logs.compactMap { if case .log(.info, let text, _, _) = $0 { text } else { nil } }
        #expect(infos.last?.hasPrefix("expiration handler returned after 1.5 s") == true)
    }

    @Test func aLeakTheSafetyNetCaughtIsAFaultNamingTheLine() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let writer = RecordingLogWriter()
        manager.diagnostics!.addObserver(UnifiedLoggingObserver(writer: writer))
        var task: SafeBackgroundTask? = try begin(manager, "Forgotten", line: 42)
        _ = task
        task = nil
        manager.diagnostics!.waitForObservers()

        #expect(writer.intervalCalls == [.begin(1, name: "Forgotten", .private), .end(1, .endedBySafetyNet)])
        let fault = try #require(writer.logs.last)
        guard case .log(.fault, let text, "Forgotten", .private) = fault else {
            Issue.record("expected a fault, got \(fault)")
            return
        }
        #expect(text.hasPrefix("leaked: released while running"))
        #expect(text.hasSuffix("begun at App/Sync.swift:42 (sync())"))
    }

    @Test func namesArePrivateByDefaultAndPublicWhenConfigured() throws {
        for privacy in [BackgroundTaskLogPrivacy.private, .public] {
            let manager = makeDiagnosedManager(BackgroundTaskSimulator())
            let writer = RecordingLogWriter()
            var configuration = UnifiedLoggingObserver<RecordingLogWriter>.Configuration()
            if privacy == .public { configuration.taskNamePrivacy = .public }
            manager.diagnostics!.addObserver(UnifiedLoggingObserver(writer: writer, configuration: configuration))
            try begin(manager, "Album \"Holidays\"").end()
            manager.diagnostics!.waitForObservers()

            #expect(writer.calls.count == 4)
            for call in writer.calls {
                switch call {
                case .log(_, _, _, let used), .begin(_, _, let used): #expect(used == privacy)
                case .event, .end: break
                }
            }
        }
    }

    @Test func routineMessagesCanBeTurnedOffWhileIntervalsStay() throws {
        let manager = makeDiagnosedManager(BackgroundTaskSimulator())
        let writer = RecordingLogWriter()
        var configuration = UnifiedLoggingObserver<RecordingLogWriter>.Configuration()
        configuration.logsRoutineEvents = false
        manager.diagnostics!.addObserver(UnifiedLoggingObserver(writer: writer, configuration: configuration))
        try begin(manager, "Quiet").end()
        manager.diagnostics!.waitForObservers()
        #expect(writer.calls == [.begin(1, name: "Quiet", .private), .end(1, .ended)])
    }

    @Test func staleLimitAndRefusalsAreErrorsAndARefusedTaskOpensNoInterval() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator) { $0.maximumOutstandingTasks = 5 }
        let writer = RecordingLogWriter()
        let observer = UnifiedLoggingObserver(writer: writer)
        manager.diagnostics!.addObserver(observer)
        let tasks = try (1...5).map { try begin(manager, "Job \($0)") }
        #expect(throws: BackgroundTaskError.limitReached(limit: 5)) { try begin(manager, "One too many") }
        simulator.advance(by: 31)  // the simulator's clock checks for stale tasks at 30 s
        manager.diagnostics!.waitForObservers()

        let errors = writer.logs.compactMap { call -> String? in
            if case .log(.error, let text, _, _) = call { text } else { nil }
        }
        #expect(errors.count == 1 + 1 + 5)
        #expect(errors[0].hasPrefix("is number 4 running at once, near the limit of 5"))
        #expect(errors[1].hasPrefix("refused: "))
        #expect(errors[2...].allSatisfy { $0.hasPrefix("still running after 30 s") })
        #expect(observer.openIntervalCount == 5)
        for task in tasks { task.end() }
        manager.diagnostics!.waitForObservers()
        #expect(observer.openIntervalCount == 0)
    }

    @Test func oneObserverOnTwoManagersKeepsTheirTasksApart() throws {
        let simulator = BackgroundTaskSimulator()
        let first = makeDiagnosedManager(simulator)
        let second = makeDiagnosedManager(simulator)
        let observer = UnifiedLoggingObserver(writer: RecordingLogWriter())
        first.diagnostics!.addObserver(observer)
        second.diagnostics!.addObserver(observer)
        let a = try begin(first, "A")  // number 1 at its manager
        let b = try begin(second, "B")  // number 1 at its manager too
        first.diagnostics!.waitForObservers()
        second.diagnostics!.waitForObservers()
        #expect(observer.openIntervalCount == 2)
        a.end()
        first.diagnostics!.waitForObservers()
        #expect(observer.openIntervalCount == 1)
        b.end()
        second.diagnostics!.waitForObservers()
        #expect(observer.openIntervalCount == 0)
    }

    @Test func aDiagnosingBackendFeedsTheSameObserverForRawCalls() {
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let writer = RecordingLogWriter()
        diagnostics.addObserver(UnifiedLoggingObserver(writer: writer))
        let site = BackgroundTaskCallSite(fileID: "SDK/Cache.swift", line: 12, function: "write()")
        let identifier = diagnostics.beginBackgroundTask(named: "Cache write", callSite: site, expirationHandler: nil)
        if let identifier { diagnostics.endBackgroundTask(identifier) }
        diagnostics.waitForObservers()
        #expect(writer.intervalCalls == [.begin(1, name: "Cache write", .private), .end(1, .ended)])
    }
}
