import BackgroundTaskKitTesting
import Foundation
import Testing

/// Handlers called off the main thread: the main thread that waits for them runs the work they send
/// to the main actor, so cleanups are done when `advance(by:)` returns, without a stall.
@MainActor
struct OffMainHandlerTests {
    @Test(arguments: ["safe", "manager", "manager-coalesced"])
    func cleanupsHaveRunWhenAdvanceReturnsWithoutAStall(_ face: String) throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerOffMainActor])
        var cleanedUp = false
        var manager: BackgroundTaskManager?
        let task: SafeBackgroundTask
        switch face {
        case "safe":
            task = SafeBackgroundTask.begin("Upload", backend: simulator, onExpiration: { cleanedUp = true })
        default:
            var configuration = BackgroundTaskManager.Configuration()
            configuration.coalescesAssertions = face == "manager-coalesced"
            manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
            task = try manager!.beginTask("Upload", onExpiration: { cleanedUp = true })
        }
        simulator.enterBackground()
        let start = ContinuousClock.now
        simulator.advance(by: 60)
        let elapsed = ContinuousClock.now - start
        #expect(cleanedUp)
        #expect(task.state == .expired)
        #expect(elapsed < .milliseconds(500), "the engine waited for the main queue: \(elapsed)")
        #expect(
            simulator.events.contains(
                .expirationHandlerCalled(BackgroundTaskIdentifier(rawValue: 1), onMainActor: false)))
        try simulator.expectNoLeaks()
        _ = manager
    }

    @Test func aHandlerWaitingForTheMainQueueIsRecordedInsteadOfHanging() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerOffMainActor])
        simulator.offMainHandlerTimeout = 0.2
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        // Raw code whose handler, called off the main thread, waits for the main queue: the test's main
        // thread is waiting for the handler, so the two would wait for each other for ever.
        _ = backend.beginBackgroundTask(named: "Waits for main") { DispatchQueue.main.sync {} }
        let start = ContinuousClock.now
        simulator.advance(by: 60)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(simulator.events.contains(.misuse(.offMainHandlerDidNotReturn(BackgroundTaskIdentifier(rawValue: 1)))))
        #expect(
            simulator.log.description.contains("had not returned in time (is it waiting for DispatchQueue.main")
        )
    }
}
