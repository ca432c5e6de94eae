import BackgroundTaskKitTesting
import Foundation
import Testing

/// The simulator playing `ProcessInfo.performExpiringActivity`, as app extensions and watchOS use it.
@MainActor
struct ExpiringActivityTests {
    /// Extension code written as Apple documents: the first invocation blocks until the work is done
    /// or the expired invocation tells it to stop.
    final class CarefulSaver: Sendable {
        let done = DispatchSemaphore(value: 0)
        let invocations = Locked<[Bool]>([])

        func save(using performer: some ExpiringActivityPerforming) {
            performer.performExpiringActivity(withReason: "Save draft") { [self] expired in
                invocations.withLock { $0.append(expired) }
                if expired {
                    done.signal()  // stop the work; the first invocation returns
                } else {
                    done.wait()  // the work runs meanwhile (never finishes in this test)
                }
            }
        }
    }

    @Test func aCarefulActivityIsExpiredOnAnotherThreadAndEndsCleanly() async throws {
        let simulator = BackgroundTaskSimulator()
        let saver = CarefulSaver()
        saver.save(using: simulator)
        let begun = try await simulator.waitForBegins(1)
        #expect(begun.map(\.name) == ["Save draft"])
        simulator.enterBackground()
        simulator.advance(by: 60)
        try simulator.expectNoLeaks()
        #expect(simulator.appState == .suspended)
        #expect(saver.invocations.withLock { $0 } == [false, true])
        #expect(simulator.assertionHistory.first?.expirationHandlerCalledAt == 26)
    }

    @Test func anActivityWhoseFirstInvocationIgnoresExpiryGetsTheAppKilled() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.offMainHandlerTimeout = 0.2
        let stuck = DispatchSemaphore(value: 0)
        simulator.performExpiringActivity(withReason: "Upload") { expired in
            if !expired { stuck.wait() }  // never told to stop
        }
        try await simulator.waitForBegins(1)
        simulator.enterBackground()
        simulator.advance(by: 60)
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(termination.heldAssertions.map(\.name) == ["Upload"])
        stuck.signal()
    }

    @Test func anActivityThatReturnsAtOnceLosesItsWorkToSuspension() async throws {
        let simulator = BackgroundTaskSimulator()
        let saved = Locked(false)
        simulator.performExpiringActivity(withReason: "Save") { expired in
            guard !expired else { return }
            // The classic mistake: async work, and the block returns before it is done.
            simulator.schedule(after: 2) { saved.withLock { $0 = true } }
        }
        #expect(await waitForEvent(in: simulator) { $0 == .ended(BackgroundTaskIdentifier(rawValue: 1)) })
        simulator.enterBackground()
        simulator.advance(by: 10)
        #expect(simulator.appState == .suspended)
        #expect(!saved.withLock { $0 })  // suspended before the save ran
        #expect(simulator.termination == nil)
    }

    @Test func aSuspendedAppsActivityIsExpiredAtOnce() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        simulator.advance(by: 1)  // suspended
        let invocations = Locked<[Bool]>([])
        simulator.performExpiringActivity(withReason: "Late") { expired in invocations.withLock { $0.append(expired) } }
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while invocations.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(invocations.withLock { $0 } == [true])
        #expect(simulator.outstanding.isEmpty)
    }

    @Test func theSixtyFifthConcurrentActivityIsRefused() async throws {
        var configuration = SimulatorConfiguration()
        configuration.expiringActivityLimit = 3
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let release = DispatchSemaphore(value: 0)
        let fourth = Locked<[Bool]>([])
        for _ in 0..<3 {
            simulator.performExpiringActivity(withReason: "Parked") { expired in if !expired { release.wait() } }
        }
        try await simulator.waitForBegins(3)
        simulator.performExpiringActivity(withReason: "One too many") { expired in
            fourth.withLock { $0.append(expired) }
        }
        #expect(simulator.events.contains(.notGranted(name: "One too many")))
        #expect(simulator.outstanding.count == 3)
        for _ in 0..<3 { release.signal() }
        #expect(await waitForEvent(in: simulator) { $0 == .ended(BackgroundTaskIdentifier(rawValue: 3)) })
        #expect(SimulatorConfiguration().expiringActivityLimit == 64)
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while fourth.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(fourth.withLock { $0 } == [true])
    }

    @Test(arguments: ["safe", "manager"])
    func thePackagesFacesOverTheExpiringActivityBackendExpireCleanly(_ face: String) throws {
        let simulator = BackgroundTaskSimulator()
        let backend = ExpiringActivityBackend(simulator)
        var cleanedUp = false
        let manager = BackgroundTaskManager(backend: backend)
        let task =
            face == "safe"
            ? SafeBackgroundTask.begin("Share", backend: backend, onExpiration: { cleanedUp = true })
            : try manager.beginTask("Share", onExpiration: { cleanedUp = true })
        #expect(task.state == .running)
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(cleanedUp)
        #expect(task.state == .expired)
        try simulator.expectNoLeaks()
    }
}
