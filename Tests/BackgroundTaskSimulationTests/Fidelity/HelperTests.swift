import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// The test helpers must not let a real bug pass.
@Suite(.failuresOnPurpose)
@MainActor
struct HelperTests {
    @Test func aTaskReleasedWhileRunningFailsExpectNoLeaksNamingItsLine() throws {
        let simulator = BackgroundTaskSimulator()
        do {
            _ = SafeBackgroundTask.begin(
                "Export", backend: simulator, fileID: "App/Exporter.swift", line: 42, function: "export()")
        }
        #expect(simulator.outstanding.isEmpty)  // the system sees nothing wrong
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message.contains("released while running and ended by the safety net"))
        #expect(failure.message.contains("App/Exporter.swift:42 (export())"))
        #expect(simulator.safetyNetEnds.map(\.identifier) == [BackgroundTaskIdentifier(rawValue: 1)])
    }

    @Test func aCoalescedManagerTaskReleasedWhileRunningFailsToo() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        let other = try manager.beginTask("Other")  // keeps the shared assertion in use
        do {
            _ = try manager.beginTask("Forgotten", fileID: "App/Sync.swift", line: 7, function: "sync()")
        }
        #expect(simulator.safetyNetEnds.map(\.identifier) == [nil])
        other.end()
        simulator.advance(by: 15)  // past the linger: the shared assertion is ended
        #expect(simulator.outstanding.isEmpty)
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message.contains("App/Sync.swift:7 (sync())"))
    }

    /// The task and the shared assertion ended for it are one leak, not two.
    @Test func aManagersOnlyTaskReleasedWhileRunningIsOneSafetyNetEnd() throws {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.linger = 0
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        do {
            _ = try manager.beginTask("Forgotten", fileID: "App/Sync.swift", line: 7, function: "sync()")
        }
        #expect(simulator.outstanding.isEmpty)
        #expect(simulator.safetyNetEnds.map(\.identifier) == [BackgroundTaskIdentifier(rawValue: 1)])
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message.contains("1 task(s) were released"))
    }

    @Test func aTaskEndedProperlyPassesExpectNoLeaks() throws {
        let simulator = BackgroundTaskSimulator()
        SafeBackgroundTask.begin("Export", backend: simulator).end()
        try simulator.expectNoLeaks()
        #expect(simulator.safetyNetEnds.isEmpty)
    }

    /// The early-return bug with a correct handler: nothing crashes, the app is merely kept awake
    /// until its time runs out. `expectNoLeaks()` passes; `expectNoExpiry()` is the one that fails.
    @Test func heldUntilExpiryPassesExpectNoLeaksButFailsExpectNoExpiry() throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin("Refresh", backend: simulator)
        simulator.enterBackground()
        let cacheHit = simulator.now == 0  // a cache hit, this time
        if cacheHit {
            // returns early: `task.end()` is never called
        } else {
            task.end()
        }
        simulator.advance(by: 60)
        try simulator.expectNoLeaks()
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoExpiry() }
        #expect(failure.message.contains("the background time ran out at 26 s with 1 assertion(s) held"))
        #expect(failure.message.contains("held 26 s"))
        #expect(simulator.assertionHistory.first?.heldTime(now: simulator.now) == 26)
    }

    @Test func workThatEndsItsTaskPassesExpectNoExpiry() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Refresh", backend: simulator)
        simulator.advance(by: 3)
        task.end()
        simulator.advance(by: 60)
        try simulator.expectNoExpiry()
        #expect(simulator.assertionHistory.map { $0.heldTime(now: simulator.now) } == [3])
    }

    @Test func waitForBeginsWaitsForABeginOnAnotherQueue() async throws {
        let simulator = BackgroundTaskSimulator()
        let queue = DispatchQueue(label: "cache")
        let box = Locked<SafeBackgroundTask?>(nil)
        queue.asyncAfter(deadline: .now() + 0.05) {
            box.withLock { $0 = SafeBackgroundTask.begin("Trim cache", backend: simulator) }
        }
        let begun = try await simulator.waitForBegins(1)
        #expect(begun.map(\.name) == ["Trim cache"])
        box.withLock { $0?.end() }
        try simulator.expectNoLeaks()
    }

    @Test func waitForBeginsFailsClearlyWhenNothingComes() async throws {
        let simulator = BackgroundTaskSimulator()
        let failure = try await #require(throws: SimulatorExpectationFailure.self) {
            try await simulator.waitForBegins(1, timeout: 0.02)
        }
        #expect(failure.message.contains("Expected 1 begin(s)"))
    }

    @Test func durationFormsMoveTheClockLikeSeconds() {
        let simulator = BackgroundTaskSimulator()
        let fired = Locked(false)
        simulator.schedule(after: .milliseconds(1500)) { fired.withLock { $0 = true } }
        simulator.advance(by: .seconds(1))
        #expect(simulator.now == 1)
        #expect(!fired.withLock { $0 })
        simulator.advance(by: .milliseconds(500))
        #expect(fired.withLock { $0 })
        simulator.spend(.seconds(2))
        #expect(simulator.now == 3.5)
    }

    @Test func theFailureLogReadsAsWordsWithoutOptional() throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: true)])
        let backend: any BackgroundTaskBackend = simulator
        _ = backend.beginBackgroundTask(named: nil) {}
        simulator.faults = []
        _ = backend.beginBackgroundTask(named: "Upload") {}
        simulator.enterBackground()
        simulator.advance(by: 60)
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        let text = failure.description
        #expect(!text.contains("Optional("))
        #expect(text.contains("began 1 (0x1) \"Upload\""))
        #expect(text.contains("expiration handler of a refused begin called on the main actor"))
        #expect(text.contains("not granted: (unnamed)"))
        #expect(text.contains("Assertions:"))
    }
}
