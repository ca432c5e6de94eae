import BackgroundTaskKitTesting
import Foundation
import Testing

private struct SaveFailed: Error, Equatable {}

/// Non-Sendable main-actor state, to show the closure runs in the caller's isolation.
@MainActor
private final class Library {
    var items: [String] = []
}

@MainActor
struct WithBackgroundTaskTests {
    @Test func theSyncFormReturnsTheBodysValueAndEndsTheTask() throws {
        let simulator = BackgroundTaskSimulator()
        let value = withBackgroundTask("Sum", backend: simulator) {
            #expect(simulator.outstanding.count == 1)
            return 1 + 2
        }
        #expect(value == 3)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theSyncFormPassesTheBodysTypedErrorThroughAndStillEnds() throws {
        let simulator = BackgroundTaskSimulator()
        #expect(throws: SaveFailed()) {
            try withBackgroundTask("Save", backend: simulator) { () throws(SaveFailed) in throw SaveFailed() }
        }
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theAsyncFormRunsInTheCallersIsolation() async throws {
        let simulator = BackgroundTaskSimulator()
        let library = Library()
        let count = await withBackgroundTask("Refresh", backend: simulator) {
            await Task.yield()
            library.items.append("new")  // main-actor state, no hop needed
            return library.items.count
        }
        #expect(count == 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theAsyncFormPassesTheBodysTypedErrorThrough() async throws {
        let simulator = BackgroundTaskSimulator()
        await #expect(throws: SaveFailed()) {
            try await withBackgroundTask("Save", backend: simulator) { () async throws(SaveFailed) in
                await Task.yield()
                throw SaveFailed()
            }
        }
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func onExpiryTheAsyncBodyIsCancelledAndTheTaskEndsWithoutWaitingForIt() async throws {
        let simulator = BackgroundTaskSimulator()
        let journal = HandlerJournal()
        simulator.enterBackground()
        let work = Task { @MainActor in
            try await withBackgroundTask("Long", backend: simulator, onExpiration: { journal.note("cleanup") }) {
                journal.note("body started")
                for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }  // bounded: fails, not hangs
                journal.note(Task.isCancelled ? "body saw cancellation" : "body was never cancelled")
                try Task.checkCancellation()
            }
        }
        for _ in 0..<20 where journal.entries.isEmpty { await Task.yield() }
        simulator.advance(by: 30)
        // Ended inside the handler, before the body has noticed.
        try simulator.expectEveryAssertionEndedOnce()
        #expect(journal.entries == ["body started", "cleanup"])
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(journal.entries == ["body started", "cleanup", "body saw cancellation"])
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func whenNotGrantedTheBodyRunsAnyway() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let syncValue = withBackgroundTask("Refused", backend: simulator) { "ran" }
        let asyncValue = await withBackgroundTask("Refused", backend: simulator) { () async in "ran" }
        #expect(syncValue == "ran")
        #expect(asyncValue == "ran")
        #expect(simulator.events == [.notGranted(name: "Refused"), .notGranted(name: "Refused")])
    }

    @Test func aCancellationAfterTheBodyReturnedIsHarmless() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerTwice])
        simulator.enterBackground()
        await withBackgroundTask("Quick", backend: simulator) { () async in }
        simulator.advance(by: 40)
        try simulator.expectEveryAssertionEndedOnce()
        #expect(!Task.isCancelled)
    }
}
