import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

/// Owns a task of a manager; kept alive only by a cleanup closure in the tests below.
private final class Job: @unchecked Sendable {  // only touched by one test thread at a time
    var task: SafeBackgroundTask?
}

/// The first begin blocks until released and is then refused; later begins are granted at once.
private final class FirstBeginRefusedBackend: BackgroundTaskBackend {
    let firstEntered = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    private let calls = Locked(0)
    let ended = Locked<[BackgroundTaskIdentifier]>([])

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        guard call == 1 else { return BackgroundTaskIdentifier(rawValue: call) }
        firstEntered.signal()
        releaseFirst.wait()
        return nil
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        ended.withLock { $0.append(identifier) }
    }

    var backgroundTimeRemaining: TimeInterval? { nil }
}

/// Like a device when a task is begun off the main thread as time runs out: the system calls the
/// handler on the main thread while `beginBackgroundTask` is still running on the caller's thread.
private final class HandlerDuringBeginBackend: BackgroundTaskBackend {
    /// Whether the assertion had been ended when the handler returned.
    let endedWhenHandlerReturned = Locked<Bool?>(nil)
    private let ended = Locked(false)

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let handlerStarted = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                handlerStarted.signal()
                expirationHandler?()
                self.endedWhenHandlerReturned.withLock { $0 = self.ended.value }
            }
        }
        handlerStarted.wait()
        Thread.sleep(forTimeInterval: 0.1)  // begin returns while the handler runs
        return BackgroundTaskIdentifier(rawValue: 1)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        ended.withLock { $0 = true }
    }

    var backgroundTimeRemaining: TimeInterval? { nil }
}

/// Runs `work` on a new thread; whether it finished within `seconds` (a deadlock leaves it stuck).
private func finishes(within seconds: Double, _ work: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        work()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// Found by an independent review; each failed before the engine was fixed.
struct EngineRegressionTests {
    @Test func endAllDoesNotDeadlockWhenADroppedCleanupHoldsTheLastReferenceToATaskOwner() throws {
        let manager = BackgroundTaskManager(backend: BackgroundTaskSimulator())
        do {
            let job = Job()
            job.task = try manager.beginTask("Job") { _ = job }
        }  // the app lets go of the job; only the cleanup keeps it alive
        #expect(finishes(within: 5) { manager.endAll() })
    }

    @Test func endDoesNotDeadlockWhenTheDroppedCleanupOwnsAnotherTask() throws {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = false
        let manager = BackgroundTaskManager(backend: BackgroundTaskSimulator(), configuration: configuration)
        let job = Job()
        let first = try manager.beginTask("First") { [job] in _ = job }
        job.task = try manager.beginTask("Second")
        _ = consume job
        #expect(finishes(within: 5) { first.end() })
    }

    @Test func aHandlerRunningWhileBeginIsInFlightReturnsOnlyAfterTheAssertionEnded() async throws {
        let backend = HandlerDuringBeginBackend()
        let task = await Task.detached { SafeBackgroundTask.begin("Begun off main", backend: backend) }.value
        for _ in 0..<500 where backend.endedWhenHandlerReturned.value == nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(backend.endedWhenHandlerReturned.value == true)
        #expect(task.state == .expired)
    }

    @Test func aTaskBegunWhileTheSharedBeginIsInFlightLearnsItsFateAtOnce() throws {
        let backend = FirstBeginRefusedBackend()
        let manager = BackgroundTaskManager(backend: backend)
        let firstOutcome = Locked<BackgroundTaskError?>(nil)
        let firstDone = DispatchSemaphore(value: 0)
        Thread {
            do throws(BackgroundTaskError) {
                _ = try manager.beginTask("First")
            } catch {
                firstOutcome.withLock { $0 = error }
            }
            firstDone.signal()
        }.start()
        backend.firstEntered.wait()
        let second = try manager.beginTask("Second")  // gets its own, granted assertion
        #expect(second.state == .running)
        backend.releaseFirst.signal()
        firstDone.wait()
        #expect(firstOutcome.value == .notGranted)
        #expect(second.state == .running)
        second.end()  // not the shared slot: ended at once, no linger
        #expect(backend.ended.value == [BackgroundTaskIdentifier(rawValue: 2)])
    }
}
