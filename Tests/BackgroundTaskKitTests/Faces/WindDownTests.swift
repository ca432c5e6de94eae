import BackgroundTaskKit
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// On expiry an async body is cancelled, and the end waits (bounded) for it to return, so the work releases its file
/// and database locks before the app is suspended: a lock held at suspension is `0xdead10cc`.
@MainActor
struct WindDownTests {
    @Test func theEndWaitsForTheCancelledBodyToReleaseItsLockBeforeTheAppIsSuspended() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let started = Flag()
        let work = Task.detached {
            try await compact(on: simulator, windDownLimit: 2, started: started)
        }
        #expect(await waitUntil("the body holds its lock") { started.isSet })
        simulator.advance(by: 60)

        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(simulator.termination == nil)
        let order = simulator.events.filter { event in
            switch event {
            case .fileLockReleased, .ended, .appStateChanged(.suspended): true
            default: false
            }
        }
        #expect(order == [.fileLockReleased(name: "Library.sqlite"), .ended(id(1)), .appStateChanged(.suspended)])
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func withoutAWindDownTheLockHeldAtSuspensionIsTerminatedWith0xdead10cc() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let started = Flag()
        let mayFinish = Flag()
        let work = Task.detached {
            try await compact(on: simulator, windDownLimit: 0, started: started, afterCancellation: mayFinish)
        }
        #expect(await waitUntil("the body holds its lock") { started.isSet })
        simulator.advance(by: 60)  // the body is still unwinding when its assertion ends
        mayFinish.set()

        await #expect(throws: CancellationError.self) { try await work.value }
        try simulator.expectTermination(.suspendedWithLockedFile, at: 26)
        #expect(simulator.termination?.reason == .suspendedHoldingFileLock)
        #expect(simulator.termination?.heldAssertions == [])
        #expect(!simulator.events.contains(.fileLockReleased(name: "Library.sqlite")), "released after termination")
    }

    @Test func theWaitIsBoundedWhenTheBodyIgnoresCancellation() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.windDownRealTimeLimit = 0.1  // on a device: the body's limit; a simulator waits in real time
        simulator.enterBackground()
        let started = Flag()
        let mayFinish = Flag()
        let work = Task.detached {
            try await compact(on: simulator, windDownLimit: 0.5, started: started, afterCancellation: mayFinish)
        }
        #expect(await waitUntil("the body holds its lock") { started.isSet })
        simulator.advance(by: 60)  // returns: the handler waited 0.1 s at most, then ended the assertion

        #expect(simulator.events.contains(.ended(id(1))))
        #expect(simulator.termination?.code == .suspendedWithLockedFile)
        mayFinish.set()
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(simulator.bookkeeping == (began: 1, ended: 1, badEnds: 0))
    }

    @Test func aManagersTaskWindsDownTooBeforeItsSharedAssertionEnds() async throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        simulator.enterBackground()
        let started = Flag()
        let work = Task.detached {
            try await manager.withTask("Compact", windDownLimit: 2) { try await compactBody(simulator, started, nil) }
        }
        #expect(await waitUntil("the body holds its lock") { started.isSet })
        simulator.advance(by: 60)

        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(simulator.termination == nil)
        let released = try #require(simulator.events.firstIndex(of: .fileLockReleased(name: "Library.sqlite")))
        let ended = try #require(simulator.events.firstIndex { if case .ended = $0 { true } else { false } })
        #expect(released < ended)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test(arguments: [Double.nan, -1, 0, -Double.infinity])
    func aLimitOfZeroNegativeOrNaNDoesNotWait(limit: Double) async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let started = Flag()
        let mayFinish = Flag()
        let work = Task.detached {
            try await compact(on: simulator, windDownLimit: limit, started: started, afterCancellation: mayFinish)
        }
        #expect(await waitUntil("the body holds its lock") { started.isSet })
        simulator.advance(by: 60)
        mayFinish.set()
        _ = try? await work.value
        #expect(simulator.termination?.code == .suspendedWithLockedFile)
    }
}

// MARK: - On a device's clock

/// The device's bounds, on a backend without the simulator's real-time wind-down: each body's limit, and the 2 s
/// that all waits of one expiry share.
struct WindDownDeviceBoundsTests {
    @Test func aHandlerWaitsAtMostTheBodysLimitForABodyThatNeverReturns() async throws {
        let backend = HandlerFiringBackend()
        let started = Flag()
        let work = Task.detached {
            await withBackgroundTask("Stuck", backend: backend, windDownLimit: 0.3) {
                started.set()
                while !backend.released.isSet { await pause(milliseconds: 1) }  // ignores cancellation
            }
        }
        while !started.isSet { await pause(milliseconds: 1) }
        let start = Date()
        backend.fireHandler()  // the system's handler, here on this thread
        let waited = Date().timeIntervalSince(start)
        #expect(backend.ended, "the assertion is ended once the limit has passed")
        #expect(waited < 5, "waited \(waited) s")  // at most 0.3 s, less if other expiries used the allowance
        backend.released.set()
        await work.value
    }
}

/// One assertion whose expiration handler the test fires, with no hooks: the device's wind-down rules apply.
private final class HandlerFiringBackend: BackgroundTaskBackend, @unchecked Sendable {  // fields under `lock`
    private let lock = NSLock()
    private var handler: (@MainActor @Sendable () -> Void)?
    private var endedFlag = false
    let released = Flag()

    func beginBackgroundTask(
        named name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        lock.withLock { handler = expirationHandler }
        return BackgroundTaskIdentifier(rawValue: 1)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        lock.withLock { endedFlag = true }
    }

    var backgroundTimeRemaining: TimeInterval? { nil }
    var ended: Bool { lock.withLock { endedFlag } }

    func fireHandler() {
        if let handler = lock.withLock({ handler }) { MainActorContext.callOnAnyThread(handler) }
    }
}

// MARK: - A database compaction that holds a file lock while it runs

/// Compacts inside `withBackgroundTask` on the global executor (not the main actor, which the expiry's handler holds):
/// takes the lock, says it started, works until cancelled, waits for `afterCancellation` if given, releases the lock.
/// It never blocks a thread: the cooperative pool has as many threads as cores, two here.
private func compact(
    on simulator: BackgroundTaskSimulator,
    windDownLimit: Double,
    started: Flag,
    afterCancellation: Flag? = nil
) async throws {
    try await withBackgroundTask("Compact", backend: simulator, windDownLimit: windDownLimit) {
        try await compactBody(simulator, started, afterCancellation)
    }
}

private func compactBody(
    _ simulator: BackgroundTaskSimulator, _ started: Flag, _ afterCancellation: Flag?
) async throws {
    let lock = simulator.takeFileLock("Library.sqlite")
    defer { lock.release() }
    started.set()
    while !Task.isCancelled { await pause(milliseconds: 1) }
    while let afterCancellation, !afterCancellation.isSet { await pause(milliseconds: 1) }
    await pause(milliseconds: 20)  // unwinding takes a moment: the end must wait for it
    throw CancellationError()
}

/// Suspends for about `milliseconds` of real time, cancelled or not, without blocking a thread.
private func pause(milliseconds: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { continuation.resume() }
    }
}

/// A flag any thread may set once.
private final class Flag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.value }
    func set() { value.withLock { $0 = true } }
}
