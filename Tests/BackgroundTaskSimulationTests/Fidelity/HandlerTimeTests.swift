import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Handler time is charged only to a handler that is running (or being waited for) on the main
/// thread, and in whole nanoseconds.
@MainActor
struct HandlerTimeTests {
    @Test func timeSpentBeforeAHandlerSentToTheMainThreadStartsIsNotItsTime() async throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let keeper = backend.beginBackgroundTask(named: "Keeper") {}  // holds the app awake
        simulator.faults = [.handlerBeforeBeginReturns]
        // A worker's begin: its handler is sent to the main queue, which is busy with this test.
        let worker = Thread {
            let identifier = backend.beginBackgroundTask(named: "Worker") {}
            backend.endBackgroundTask(identifier!)
        }
        worker.start()
        try await simulator.waitForBegins(2)
        simulator.advance(by: 10)  // the test's own time, before the worker's handler has run
        #expect(simulator.termination == nil)
        // Let the main queue run the worker's handler, then its end.
        let ended = await waitForEvent(in: simulator) { $0 == .ended(BackgroundTaskIdentifier(rawValue: 2)) }
        #expect(ended)
        #expect(simulator.termination == nil)
        backend.endBackgroundTask(keeper!)
    }

    @Test func durationsThatAddUpToTheBudgetExactlyAreWithinIt() throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin(
            "Close database",
            backend: simulator,
            onExpiration: {
                simulator.spend(3.7)
                simulator.spend(1.3)  // 3.7 + 1.3 is 5.000000000000001 in floating point
            }
        )
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
        #expect(task.state == .expired)
        try simulator.expectNoLeaks()
    }

    @Test func aNanosecondOverTheBudgetIsKilled() throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin(
            "Close database",
            backend: simulator,
            onExpiration: {
                simulator.spend(3.7)
                simulator.spend(1.300_000_001)
            }
        )
        simulator.enterBackground()
        simulator.advance(by: 60)
        let termination = try simulator.expectTermination(.watchdogTimeout)
        #expect(termination.reason == .expirationHandlersTookTooLong)
        #expect(abs(termination.time - 31) < 1e-9)
        withExtendedLifetime(task) {}
    }
}

/// Waits (real time, at most 10 s) until the simulator logs an event matching `matches`, letting the
/// main actor run meanwhile.
@MainActor
func waitForEvent(in simulator: BackgroundTaskSimulator, _ matches: (SimulatorEvent) -> Bool) async -> Bool {
    await waitUntil("a simulator event", timeout: 10) { simulator.events.contains(where: matches) }
}
