import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// `.holdOffMainCalls` places the expiration handler exactly between two steps of app code on
/// another thread: the interleavings that only real threads produce, made deterministic.
@MainActor
struct HeldCallTests {
    /// The most frequent unreproduced bug shape in public code: a queue checks the shared identifier,
    /// the handler ends it on the main thread, then the queue ends it too.
    final class NaiveUploader: @unchecked Sendable {  // `identifier` is shared without a lock: the bug
        let backend: any BackgroundTaskBackend
        var identifier = BackgroundTaskIdentifier(rawValue: 0)
        let queue = DispatchQueue(label: "uploader")

        init(backend: any BackgroundTaskBackend) {
            self.backend = backend
        }

        @MainActor func start() {
            identifier = backend.beginBackgroundTask(named: "Upload") { [self] in
                backend.endBackgroundTask(identifier)
                identifier = BackgroundTaskIdentifier(rawValue: 0)
            }!
        }

        func finishOnQueue() {
            queue.async { [self] in
                if identifier.rawValue != 0 {
                    backend.endBackgroundTask(identifier)  // held here: the handler runs first
                    identifier = BackgroundTaskIdentifier(rawValue: 0)
                }
            }
        }
    }

    @Test func theNaiveCheckThenEndRacePrintsIOSsCantEndMessage() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let uploader = NaiveUploader(backend: simulator)
        uploader.start()
        simulator.enterBackground()
        simulator.advance(by: 20)
        uploader.finishOnQueue()
        try await simulator.waitForHeldCalls(1)
        simulator.advance(by: 20)  // the handler at 26 s ends it; the queue's end lands after
        #expect(simulator.consoleMessages.contains(.cannotEndTask(BackgroundTaskIdentifier(rawValue: 1))))
        #expect(simulator.termination == nil)
        #expect(simulator.heldCallCount == 0)
    }

    @Test func withoutTheFaultTheSameCodeLooksFine() async throws {
        let simulator = BackgroundTaskSimulator()
        let uploader = NaiveUploader(backend: simulator)
        uploader.start()
        simulator.enterBackground()
        simulator.advance(by: 20)
        uploader.finishOnQueue()
        _ = await waitForEvent(in: simulator) { $0 == .ended(BackgroundTaskIdentifier(rawValue: 1)) }
        simulator.advance(by: 20)
        #expect(simulator.consoleMessages.isEmpty)
    }

    @Test(arguments: ["safe", "manager", "manager-coalesced"])
    func aPackageTaskEndedOffTheMainThreadAsTimeRunsOutStaysClean(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let manager =
            face == "safe"
            ? nil
            : BackgroundTaskManager(
                backend: simulator,
                configuration: {
                    var configuration = BackgroundTaskManager.Configuration()
                    configuration.coalescesAssertions = face == "manager-coalesced"
                    configuration.linger = 0
                    return configuration
                }()
            )
        let task = try manager?.beginTask("Upload") ?? SafeBackgroundTask.begin("Upload", backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 20)
        let queue = DispatchQueue(label: "uploader")
        queue.async { task.end() }
        try await simulator.waitForHeldCalls(1)
        let start = ContinuousClock.now
        simulator.advance(by: 20)  // the handler comes while the end is held, and waits for it
        #expect(ContinuousClock.now - start < .seconds(1))
        try simulator.expectNoLeaks()
        #expect(simulator.consoleMessages.isEmpty)
        let ends = simulator.events.filter { if case .ended = $0 { true } else { false } }
        #expect(ends.count == 1)
    }

    @Test func aHeldCallGoesOnWhenTheTestReleasesIt() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let backend: any BackgroundTaskBackend = simulator
        let identifier = backend.beginBackgroundTask(named: "Save", expirationHandler: nil)!
        let thread = Thread { backend.endBackgroundTask(identifier) }
        thread.start()
        try await simulator.waitForHeldCalls(1)
        #expect(simulator.outstanding.count == 1)
        simulator.releaseHeldCalls()
        #expect(await waitForEvent(in: simulator) { $0 == .ended(identifier) })
        #expect(simulator.outstanding.isEmpty)
    }

    @Test func aBeginHeldPastTheHandlersIsRefused() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.begins)])
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let keeper = SafeBackgroundTask.begin("Keeper", backend: simulator)  // main thread: not held
        let late = Locked<BackgroundTaskIdentifier?>(nil)
        let thread = Thread {
            let identifier = backend.beginBackgroundTask(named: "Late", expirationHandler: nil)
            late.withLock { $0 = identifier }
        }
        thread.start()
        try await simulator.waitForHeldCalls(1)
        simulator.advance(by: 26)  // the handlers come; the held begin lands after them, when no time is left
        #expect(await waitForEvent(in: simulator) { $0 == .notGranted(name: "Late") })
        #expect(keeper.state == .expired)
        simulator.advance(by: 10)
        #expect(simulator.termination == nil)
        #expect(late.withLock { $0 } == nil)
        #expect(simulator.appState == .suspended)
    }

    @Test func callsOnTheMainThreadAreNeverHeld() {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.beginsAndEnds)])
        let task = SafeBackgroundTask.begin("Main", backend: simulator)
        task.end()
        #expect(simulator.heldCallCount == 0)
        #expect(simulator.outstanding.isEmpty)
    }
}

extension HeldCallTests {
    /// A call released just before the clock moves has not reached the system yet when the watchdog
    /// comes: the watchdog waits for it, as a device's thread would have made it in microseconds.
    @Test func aCallReleasedJustBeforeTheClockMovesLandsBeforeTheWatchdogLooks() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let identifier = try #require(backend.beginBackgroundTask(named: "Upload") {})
        simulator.advance(by: 27)  // the handler came at 26 s and did not end it; 4 s left
        Thread { backend.endBackgroundTask(identifier) }.start()
        try await simulator.waitForHeldCalls(1)
        simulator.releaseHeldCalls()
        simulator.advance(by: 10)  // the end is on its way when the watchdog's deadline comes
        #expect(simulator.termination == nil)
        #expect(simulator.events.contains(.ended(identifier)))
    }

    /// A task whose begin a queue made during this advance (after the expiry) gets its handler before
    /// the clock reaches the end of the budget.
    @Test func aBeginLandingInsideAdvanceAfterTheHandlersIsRefused() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.begins)])
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let keeper = try #require(backend.beginBackgroundTask(named: "Keeper") {})
        simulator.advance(by: 26)  // expired: the keeper's handler came (and did not end it)
        let late = FrozenThreadTests.ThreadResult {
            SafeBackgroundTask.begin("Late", backend: simulator)
        }
        try await simulator.waitForHeldCalls(1)
        backend.endBackgroundTask(keeper)
        simulator.releaseHeldCalls()
        simulator.advance(by: 10)
        #expect(simulator.termination == nil)
        #expect(await waitUntil("the begin returns") { late.value != nil })
        #expect(simulator.events.contains(.notGranted(name: "Late")))
        guard case .notGranted = late.value?.state else {
            Issue.record("expected the late task not granted, got \(String(describing: late.value?.state))")
            return
        }
        try simulator.expectNoLeaks()
    }
}

extension HeldCallTests {
    /// A begin released just before `advance(by:)` lands inside it, its handler comes first, and the
    /// task's end then waits at the gate at the same virtual moment: that end lands too before the
    /// watchdog checks the handler's deadline.
    @Test func anEndHeldRightAfterAReleasedBeginLandsBeforeTheDeadline() async throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundTimeBudget = 10
        configuration.expirationLead = 0
        let simulator = BackgroundTaskSimulator(
            configuration: configuration,
            faults: [.handlerBeforeBeginReturns, .handlerOffMainActor, .holdOffMainCalls(.beginsAndEnds)])
        let begun = FrozenThreadTests.ThreadResult { SafeBackgroundTask.begin("Queue", backend: simulator) }
        try await simulator.waitForHeldCalls(1)
        simulator.enterBackground()
        simulator.releaseHeldCalls()
        simulator.advance(by: 15)  // the begin lands, its handler comes, its end waits at the gate
        #expect(simulator.termination == nil)
        #expect(simulator.events.contains(.ended(BackgroundTaskIdentifier(rawValue: 1))))
        #expect(await waitUntil("the begin returns") { begun.value != nil })
    }
}
