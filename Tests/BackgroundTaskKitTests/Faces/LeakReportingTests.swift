import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Where the safety net's leaks go, and removing observers.
@Suite(.serialized, .failuresOnPurpose)
@MainActor
struct LeakReportingTests {
    /// Runs `body` with a handler that collects the leaks of tasks named `name`, then restores the
    /// previous handler.
    private func collectingLeaks(named name: String, _ body: () -> Void) -> [BackgroundTaskLeak] {
        let collected = Locked<[BackgroundTaskLeak]>([])
        LeakCapture.install()  // first: its handler must not replace this test's
        let previous = BackgroundTaskLeakReporting.handler
        BackgroundTaskLeakReporting.handler = { leak in
            if leak.name == name { collected.withLock { $0.append(leak) } } else { previous(leak) }
        }
        defer { BackgroundTaskLeakReporting.handler = previous }
        body()
        return collected.value
    }

    @Test func aLeakOnAPlatformBackendReachesTheHandlerNamingTheLine() {
        let leaks = collectingLeaks(named: "Leaked upload") {
            _ = SafeBackgroundTask.begin("Leaked upload", backend: .unlimited)  // released at once
        }
        #expect(leaks.count == 1)
        #expect(leaks.first?.callSite.fileID == "BackgroundTaskKitTests/LeakReportingTests.swift")
        #expect(leaks.first?.description.contains("Call end() when the work is done.") == true)
    }

    @Test func aLeakOnTheSimulatorIsRecordedThereNotReportedAgain() {
        let simulator = BackgroundTaskSimulator()
        let leaks = collectingLeaks(named: "Simulated leak") {
            _ = SafeBackgroundTask.begin("Simulated leak", backend: simulator)
        }
        #expect(leaks.isEmpty)
        #expect(simulator.safetyNetEnds.map(\.name) == ["Simulated leak"])
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    // MARK: - Leak reports per owner (an SDK's stay its own)

    @Test func aManagersLeakHandlerGetsItsLeaksAndTheProcessWideHandlerNone() {
        let own = Locked<[BackgroundTaskLeak]>([])
        let manager = BackgroundTaskManager(
            backend: .unlimited, leakHandler: { leak in own.withLock { $0.append(leak) } })
        let processWide = collectingLeaks(named: "SDK upload") {
            _ = try? manager.beginTask("SDK upload")  // released at once
        }
        #expect(processWide.isEmpty)
        #expect(own.value.map(\.name) == ["SDK upload"])
        #expect(own.value.first?.module == "BackgroundTaskKitTests")
    }

    @Test func aManagerWithDiagnosticsTakesALeakHandlerToo() {
        let own = Locked(0)
        let manager = BackgroundTaskManager(
            backend: .unlimited, diagnostics: .init(), leakHandler: { _ in own.withLock { $0 += 1 } })
        let processWide = collectingLeaks(named: "Diagnosed SDK upload") {
            _ = try? manager.beginTask("Diagnosed SDK upload")
        }
        #expect(processWide.isEmpty)
        #expect(own.value == 1)
    }

    @Test func aModulesHandlerGetsTheLeaksBegunInItsCodeUntilRemoved() {
        let module = Locked<[BackgroundTaskLeak]>([])
        BackgroundTaskLeakReporting.setHandler(forModule: "MySDK") { leak in module.withLock { $0.append(leak) } }
        let processWide = collectingLeaks(named: "Module leak") {
            // As if begun in the SDK's code, then in the app's.
            _ = SafeBackgroundTask.begin("Module leak", backend: .unlimited, fileID: "MySDK/Uploader.swift")
            _ = SafeBackgroundTask.begin("Module leak", backend: .unlimited, fileID: "MyApp/Saver.swift")
        }
        #expect(module.value.map(\.callSite.fileID) == ["MySDK/Uploader.swift"])
        #expect(processWide.map(\.callSite.fileID) == ["MyApp/Saver.swift"])
        #expect(BackgroundTaskLeakReporting.handler(forModule: "MySDK") != nil)

        BackgroundTaskLeakReporting.setHandler(forModule: "MySDK", nil)
        #expect(BackgroundTaskLeakReporting.handler(forModule: "MySDK") == nil)
        let afterRemoval = collectingLeaks(named: "Module leak") {
            _ = SafeBackgroundTask.begin("Module leak", backend: .unlimited, fileID: "MySDK/Uploader.swift")
        }
        #expect(afterRemoval.map(\.callSite.fileID) == ["MySDK/Uploader.swift"])
        #expect(module.value.count == 1)
    }

    @Test func aManagersLeakHandlerComesBeforeItsModulesHandler() {
        let module = Locked(0)
        let own = Locked(0)
        BackgroundTaskLeakReporting.setHandler(forModule: "MySDK") { _ in module.withLock { $0 += 1 } }
        defer { BackgroundTaskLeakReporting.setHandler(forModule: "MySDK", nil) }
        let manager = BackgroundTaskManager(backend: .unlimited, leakHandler: { _ in own.withLock { $0 += 1 } })
        _ = try? manager.beginTask("Owned", fileID: "MySDK/Sync.swift")
        #expect((own.value, module.value) == (1, 0))
    }

    @Test(arguments: [("MySDK/Uploader.swift", "MySDK"), ("Uploader.swift", "Uploader.swift"), ("", ""), ("/x", "")])
    func aLeaksModuleIsTheFirstPartOfItsFileID(fileID: String, module: String) {
        let leak = BackgroundTaskLeak(name: nil, callSite: .init(fileID: fileID, line: 1, function: "f()"), age: 0)
        #expect(leak.module == module)
    }

    @Test func aManagersObserversHearItsLeaks() throws {
        let manager = BackgroundTaskManager(backend: .unlimited, diagnostics: .init())
        let events = Locked<[BackgroundTaskEvent.Kind]>([])
        manager.diagnostics?.addObserver { event in events.withLock { $0.append(event.kind) } }
        _ = collectingLeaks(named: "Managed leak") {
            _ = try? manager.beginTask("Managed leak")
        }
        manager.diagnostics?.waitForObservers()
        #expect(events.value.contains(.endedBySafetyNet))
    }

    @Test func aRemovedObserverHearsNothingMore() throws {
        let manager = BackgroundTaskManager(backend: .unlimited, diagnostics: .init())
        let heard = Locked(0)
        let handle = try #require(manager.diagnostics).addObserver { _ in heard.withLock { $0 += 1 } }
        try manager.beginTask("Heard").end()
        manager.diagnostics?.waitForObservers()
        let before = heard.value
        #expect(before > 0)
        handle.remove()
        handle.remove()  // idempotent
        try manager.beginTask("Not heard").end()
        manager.diagnostics?.waitForObservers()
        #expect(heard.value == before)
    }

    // MARK: - A handler read a million times

    // Issue 20: each read of a closure kept directly as a lock's state wrapped it in two more thunks,
    // so every leak report went deeper than the last until one overflowed the stack. In this suite,
    // which runs its tests one at a time: another test's handler around this one would add frames.

    /// Drops a task named `Depth probe` on a thread with a 256 KB stack (the size of a secondary
    /// thread on iOS was 512 KB) and returns how deep the handler was called.
    private func depthOfAReportOnASmallStack(_ depths: Locked<[Int]>) -> Int? {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = SafeBackgroundTask.begin("Depth probe", backend: .unlimited)  // released at once: a leak
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        guard done.wait(timeout: .now() + 30) == .success else { return nil }
        return depths.withLock { $0.popLast() }
    }

    @Test func aMillionReadsAndReportsLeaveTheHandlerCalledAsDeepAsAtFirst() throws {
        let depths = Locked<[Int]>([])
        let reports = Locked(0)
        LeakCapture.install()  // first: its handler must not replace this test's
        let previous = BackgroundTaskLeakReporting.handler
        BackgroundTaskLeakReporting.handler = { leak in
            switch leak.name {
            case "Depth probe": depths.withLock { $0.append(Thread.callStackReturnAddresses.count) }
            case "Counted": reports.withLock { $0 += 1 }
            default: previous(leak)
            }
        }
        defer { BackgroundTaskLeakReporting.handler = previous }

        let first = try #require(depthOfAReportOnASmallStack(depths))
        for _ in 0..<1_000_000 {
            _ = BackgroundTaskLeakReporting.handler
        }
        for _ in 0..<2_000 {
            _ = SafeBackgroundTask.begin("Counted", backend: .unlimited)
        }
        let last = try #require(depthOfAReportOnASmallStack(depths))

        #expect(reports.value == 2_000)
        #expect(last == first, "the handler was called \(last - first) frames deeper after a million reads")
    }
}
