import BackgroundTaskKitTesting
import Foundation
import Testing

/// Where the safety net's leaks go, and removing observers.
@Suite(.serialized)
@MainActor
struct LeakReportingTests {
    /// Runs `body` with a handler that collects the leaks of tasks named `name`, then restores the
    /// previous handler.
    private func collectingLeaks(named name: String, _ body: () -> Void) -> [BackgroundTaskLeak] {
        let collected = Locked<[BackgroundTaskLeak]>([])
        let previous = BackgroundTaskLeakReporting.handler
        BackgroundTaskLeakReporting.handler = { leak in
            if leak.name == name { collected.withLock { $0.append(leak) } } else { previous(leak) }
        }
        defer { BackgroundTaskLeakReporting.handler = previous }
        body()
        return collected.value
    }

    @Test func aLeakOnAPlatformBackendReachesTheHandlerNamingTheLine() {
        let leaks = collectingLeaks(named: "Leaked upload") {
            _ = SafeBackgroundTask.begin("Leaked upload", backend: .unlimited)  // released at once
        }
        #expect(leaks.count == 1)
        #expect(leaks.first?.callSite.fileID == "BackgroundTaskSimulationTests/LeakReportingTests.swift")
        #expect(leaks.first?.description.contains("Call end() when the work is done.") == true)
    }

    @Test func aLeakOnTheSimulatorIsRecordedThereNotReportedAgain() {
        let simulator = BackgroundTaskSimulator()
        let leaks = collectingLeaks(named: "Simulated leak") {
            _ = SafeBackgroundTask.begin("Simulated leak", backend: simulator)
        }
        #expect(leaks.isEmpty)
        #expect(simulator.safetyNetEnds.map(\.name) == ["Simulated leak"])
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    @Test func aManagersObserversHearItsLeaks() throws {
        let manager = BackgroundTaskManager(backend: .unlimited)
        let events = Locked<[BackgroundTaskEvent.Kind]>([])
        manager.addObserver { event in events.withLock { $0.append(event.kind) } }
        _ = collectingLeaks(named: "Managed leak") {
            _ = try? manager.beginTask("Managed leak")
        }
        manager.waitForObservers()
        #expect(events.value.contains(.endedBySafetyNet))
    }

    @Test func aRemovedObserverHearsNothingMore() throws {
        let manager = BackgroundTaskManager(backend: .unlimited)
        let heard = Locked(0)
        let handle = manager.addObserver { _ in heard.withLock { $0 += 1 } }
        try manager.beginTask("Heard").end()
        manager.waitForObservers()
        let before = heard.value
        #expect(before > 0)
        handle.remove()
        handle.remove()  // idempotent
        try manager.beginTask("Not heard").end()
        manager.waitForObservers()
        #expect(heard.value == before)
    }
}
