import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// iOS kills an app suspended while it holds a file or SQLite lock in a shared container with `0xdead10cc`; the
/// simulator does the same with the locks a test declares.
@MainActor
struct FileLockTests {
    @Test func anAppSuspendedHoldingAFileLockIsTerminatedWith0xdead10cc() throws {
        let simulator = BackgroundTaskSimulator()
        let identifier = try #require(simulator.beginBackgroundTask(named: "Save", expirationHandler: nil))
        _ = simulator.takeFileLock("Shared.sqlite")
        simulator.enterBackground()
        simulator.endBackgroundTask(identifier)
        simulator.advance(by: 1)

        try simulator.expectTermination(.suspendedWithLockedFile, at: 0)
        #expect(simulator.termination?.reason == .suspendedHoldingFileLock)
        #expect(simulator.termination?.code.hexString == "0xdead10cc")
        #expect(simulator.heldFileLocks == ["Shared.sqlite"])
        #expect(!simulator.events.contains(.appStateChanged(.suspended)))
    }

    @Test func aLockReleasedBeforeSuspensionIsHarmless() throws {
        let simulator = BackgroundTaskSimulator()
        let lock = simulator.takeFileLock("Shared.sqlite")
        #expect(lock.isHeld)
        simulator.enterBackground()
        lock.release()
        lock.release()  // idempotent: one event
        simulator.advance(by: 1)

        #expect(simulator.termination == nil)
        #expect(!lock.isHeld)
        #expect(
            simulator.events == [
                .fileLockTaken(name: "Shared.sqlite"), .appStateChanged(.background),
                .fileLockReleased(name: "Shared.sqlite"), .appStateChanged(.suspended),
            ])
    }

    @Test func aLockHeldWhenTheHandlersReturnTerminatesInsteadOfSuspending() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let lock = simulator.takeFileLock("Journal")
        let slot = Slot()
        slot.identifier = simulator.beginBackgroundTask(named: "Write") {
            simulator.endBackgroundTask(slot.identifier!)  // ends in time, but the lock stays taken
        }
        simulator.advance(by: 60)

        try simulator.expectTermination(.suspendedWithLockedFile, at: 26)
        #expect(simulator.termination?.heldAssertions == [])
        lock.release()  // too late: nothing happens
        #expect(!simulator.events.contains(.fileLockReleased(name: "Journal")))
    }

    @Test func inTheForegroundOrUnderTheDebuggerALockIsNeverAtSuspension() {
        var configuration = SimulatorConfiguration()
        configuration.debuggerAttached = true
        let debugged = BackgroundTaskSimulator(configuration: configuration)
        _ = debugged.takeFileLock("Shared.sqlite")
        debugged.enterBackground()
        debugged.advance(by: 600)
        #expect(debugged.termination == nil)

        let foreground = BackgroundTaskSimulator()
        _ = foreground.takeFileLock("Shared.sqlite")
        foreground.advance(by: 600)
        #expect(foreground.termination == nil)
    }

    @Test func locksAreListedInTheOrderTakenAndAnEmptyNameIsAllowed() {
        let simulator = BackgroundTaskSimulator()
        let first = simulator.takeFileLock("")
        _ = simulator.takeFileLock("b")
        _ = simulator.takeFileLock("a")
        #expect(simulator.heldFileLocks == ["", "b", "a"])
        first.release()
        #expect(simulator.heldFileLocks == ["b", "a"])
    }
}
