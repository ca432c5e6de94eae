import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

/// Races between the app's threads and the system's expiry, placed exactly where they hurt with a
/// backend that holds a call on its way to the system. Each failed on the engine before the rebuild.
/// Serialized: their handlers hold the main actor for a moment, which would delay one another.
@MainActor @Suite(.serialized)
struct EngineInFlightTests {
    /// Ways to end a task from a background queue.
    enum OffMainEnd: String, CaseIterable, CustomTestStringConvertible {
        case safeTask, scopedTask, coalescingManager, perTaskManager, endAll, safetyNet

        var testDescription: String { rawValue }
    }

    // MARK: - An end in flight when the expiry comes (issue 9, item 1)

    @Test(arguments: OffMainEnd.allCases)
    func anEndOnItsWayToTheSystemIsFinishedBeforeTheHandlerReturns(_ way: OffMainEnd) async throws {
        let backend = GateBackend()
        let ender = try Self.begin(way, backend: backend)
        backend.holdNextEnd()
        DispatchQueue.global().async { ender() }  // the end leaves the engine and stops at the gate
        await Self.waitInBackground(for: backend.callEntered)
        backend.release(after: 0.2)  // the system gets the end only while the handler runs
        let stillHeld = backend.expire()
        #expect(stillHeld.last == [])
        #expect(backend.ends.values.allSatisfy { $0 == 1 })
    }

    /// Begins one task the given way and returns the call that ends it off the main thread.
    private static func begin(_ way: OffMainEnd, backend: GateBackend) throws -> @Sendable () -> Void {
        var perTask = BackgroundTaskManager.Configuration()
        perTask.coalescesAssertions = false
        var noLinger = BackgroundTaskManager.Configuration()
        noLinger.linger = 0
        switch way {
        case .safeTask:
            let task = SafeBackgroundTask.begin("Upload", backend: backend)
            return { task.end() }
        case .scopedTask:
            let box = ScopedBox(ScopedBackgroundTask("Save", backend: backend))
            return { box.end() }
        case .coalescingManager:
            let task = try BackgroundTaskManager(backend: backend, configuration: noLinger).beginTask("Write")
            return { task.end() }
        case .perTaskManager:
            let task = try BackgroundTaskManager(backend: backend, configuration: perTask).beginTask("Write")
            return { task.end() }
        case .endAll:
            let manager = BackgroundTaskManager(backend: backend, configuration: perTask)
            let task = try manager.beginTask("Write")
            return { withExtendedLifetime(task) { manager.endAll() } }
        case .safetyNet:
            let box = Locked<SafeBackgroundTask?>(SafeBackgroundTask.begin("Dropped", backend: backend))
            return {
                // The last reference goes: the deinit ends it, and reports the leak (captured, not printed).
                let (_, leaks) = LeakCapture.capturing(fileID: "BackgroundTaskKitTests/EngineInFlightTests.swift") {
                    box.withLock { $0 = nil }
                }
                #expect(leaks.map(\.name) == ["Dropped"])
            }
        }
    }

    // MARK: - A begin still in flight after the bounded wait (item 7)

    @Test func anAssertionsOwnHandlerEndsItWhenItsBeginReturnsLate() async throws {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = false
        let backend = GateBackend()
        let manager = BackgroundTaskManager(backend: backend, configuration: configuration)
        let first = try manager.beginTask("First")
        backend.delayBegin(2, by: 1.5)  // longer than the manager-wide expiry waits for it
        let second = Task.detached { try? manager.beginTask("Second") }
        while backend.begins < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        let stillHeld = backend.expire()  // First's handler gives up on Second after 1 s; Second's own waits
        #expect(stillHeld.last == [])
        #expect(backend.ends == [1: 1, 2: 1])
        #expect(first.state == .expired)
        #expect(await second.value?.state == .expired)
    }

    // MARK: - One burst, one system begin (item 3)

    @Test func aConcurrentBurstMakesOneSystemBeginAndEveryTaskRunsAtOnce() async throws {
        let backend = GateBackend()
        backend.holdBegin(1)
        let manager = BackgroundTaskManager(backend: backend)
        let states = Locked<[BackgroundTaskState]>([])
        let tasks = Locked<[SafeBackgroundTask]>([])
        let group = DispatchGroup()
        for index in 0..<8 {
            group.enter()
            Thread {
                if let task = try? manager.beginTask("Burst \(index)") {
                    tasks.withLock { $0.append(task) }
                    states.withLock { $0.append(task.state) }
                }
                group.leave()
            }.start()
            if index == 0 { await Self.waitInBackground(for: backend.callEntered) }  // the first begin is in flight
        }
        backend.release(after: 0.05)
        await Self.waitInBackground(for: group)
        #expect(backend.begins == 1)
        #expect(states.value == Array(repeating: .running, count: 8))
        for task in tasks.value { task.end() }
    }

    // MARK: - A handler for an assertion that is already over

    @Test func theHandlerOfARefusedAssertionExpiresNothingElse() throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = false
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        let running = try manager.beginTask("Running")
        simulator.faults = [.notGranted(callingHandler: true)]
        // Refused, and its handler comes anyway:
        #expect(throws: BackgroundTaskError.notGranted) { try manager.beginTask("Refused") }
        simulator.faults = []
        simulator.advance(by: 1)  // the refused assertion's handler runs now, in the foreground
        #expect(running.state == .running)
        running.end()
        try simulator.expectNoLeaks()
    }

    // MARK: - Helpers

    /// Waits on a background thread, keeping the main actor free for handlers.
    nonisolated static func waitInBackground(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            Thread {
                semaphore.wait()
                continuation.resume()
            }.start()
        }
    }

    nonisolated static func waitInBackground(for group: DispatchGroup) async {
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
    }
}

/// Holds a scoped task so that another thread can end it.
private final class ScopedBox: @unchecked Sendable {  // `task` is only touched under `lock`
    private let lock = NSLock()
    private var task: ScopedBackgroundTask?

    init(_ task: consuming ScopedBackgroundTask) {
        self.task = consume task
    }

    func end() {
        lock.lock()
        let task = self.task.take()
        lock.unlock()
        task?.end()
    }
}
