import BackgroundTaskKitTesting
import Testing
import Uploads

/// Each owner's cleanup runs when the simulated system expires the task, and the app is not terminated.
@MainActor
struct UploadsTests {
    @Test func aQueueOwnedUploadIsCancelledThroughItsSendableTransport() throws {
        let simulator = BackgroundTaskSimulator()
        let transport = Transport()
        let uploader = QueueUploader(transport: transport)
        uploader.start(1, backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 31)
        #expect(transport.isCancelled(1))
        uploader.finish()
        try simulator.expectNoLeaks()
    }

    @Test func anActorUploadStopsOnTheActor() async throws {
        let simulator = BackgroundTaskSimulator()
        let transport = Transport()
        let uploader = ActorUploader(transport: transport)
        await uploader.start(2, backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 31)
        for _ in 0..<100 where !transport.isCancelled(2) { await Task.yield() }
        #expect(transport.isCancelled(2))
        #expect(await uploader.stopped)
    }

    @Test func aMainActorUploadStopsThroughAWeakSelf() throws {
        let simulator = BackgroundTaskSimulator()
        let transport = Transport()
        let uploader = MainActorUploader(transport: transport)
        uploader.start(3, backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 31)
        #expect(uploader.stopped)
        #expect(transport.isCancelled(3))
        try simulator.expectNoLeaks()
    }
}
