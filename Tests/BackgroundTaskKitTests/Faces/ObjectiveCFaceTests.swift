import BackgroundTaskKitObjC
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// `BTKBackgroundTask`, the Objective-C face: its logic, through the engine, on the simulator. (Its
/// Objective-C surface is checked against the iOS SDK by `Scripts/objc-face-check.sh`.)
@Suite(.failuresOnPurpose)
@MainActor
struct ObjectiveCFaceTests {
    @Test func beginAndEndHoldAndEndOneNamedAssertion() throws {
        let simulator = BackgroundTaskSimulator()
        let task = ObjectiveCBackgroundTask.begin(withName: "Upload", backend: simulator, expirationHandler: nil)
        #expect(task.isRunning)
        #expect(task.name == "Upload")
        #expect(simulator.outstanding.map(\.name) == ["Upload"])
        task.end()
        task.end()  // again: harmless
        #expect(!task.isRunning)
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
        try simulator.expectNoLeaks()
    }

    @Test func theExpirationBlockRunsOnTheMainThreadThenTheTaskIsEnded() throws {
        let simulator = BackgroundTaskSimulator()
        let onMain = Locked<[Bool]>([])
        let task = ObjectiveCBackgroundTask.begin(withName: "Upload", backend: simulator) {
            onMain.withLock { $0.append(isOnMainActorThread()) }
        }
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(onMain.value == [true])
        #expect(task.isExpired)
        #expect(!task.isRunning)
        #expect(simulator.termination == nil)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aTaskReleasedWhileRunningIsEndedByTheSafetyNetNamingTheObjectiveCLine() throws {
        let simulator = BackgroundTaskSimulator()
        do {
            _ = ObjectiveCBackgroundTask.begin(
                withName: "Upload", backend: simulator, expirationHandler: nil,
                file: "/Users/dev/App/Sources/Uploader.m", line: 42)
        }
        #expect(simulator.outstanding.isEmpty)
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message.contains("Sources/Uploader.m:42"))
    }

    @Test func aRefusedBeginIsNotRunningAndEndsNothing() throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let task = ObjectiveCBackgroundTask.begin(withName: "Upload", backend: simulator, expirationHandler: nil)
        #expect(!task.isRunning)
        #expect(!task.isExpired)
        task.end()
        #expect(!simulator.events.contains { if case .ended = $0 { true } else { false } })
    }

    @Test func itCanHoldItsAssertionOnlyInTheBackground() throws {
        let simulator = BackgroundTaskSimulator()
        let task = ObjectiveCBackgroundTask.begin(
            withName: "Upload", backend: simulator, holdsAssertionOnlyInBackground: true, expirationHandler: nil)
        #expect(simulator.outstanding.isEmpty)
        simulator.enterBackground()
        #expect(simulator.outstanding.map(\.name) == ["Upload"])
        task.end()
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theDefaultBackendIsUsedByTheObjectiveCEntryPoints() throws {
        let simulator = BackgroundTaskSimulator()
        try withProcessWideBackgroundTaskBackend(simulator) {
            ObjectiveCBackgroundTask.begin(withName: "Plain", expirationHandler: nil).end()
            let located = ObjectiveCBackgroundTask.begin(
                withName: "Located", holdsAssertionOnlyInBackground: false, expirationHandler: {},
                file: "App/Sync.m", line: 7)
            #expect(located.callSite.description.hasPrefix("App/Sync.m:7"))
            located.end()
        }
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Plain", "Located"])
    }

    @Test(
        arguments: [
            (nil, "Objective-C"), ("", "Objective-C"), ("Uploader.m", "Uploader.m"),
            ("/a/b/App/Uploader.m", "App/Uploader.m"),
        ] as [(String?, String)])
    func theFileOfACallIsNamedAsAFileID(path: String?, fileID: String) {
        let task = ObjectiveCBackgroundTask.begin(
            withName: nil, backend: UnlimitedBackend(), expirationHandler: nil, file: path, line: 1)
        #expect(task.callSite.fileID == fileID)
        task.end()
    }
}
