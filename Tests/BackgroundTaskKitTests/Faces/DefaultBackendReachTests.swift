import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Which begins a test's default backend reaches. The task-local override reaches its own task and
/// child tasks; the process-wide one reaches every thread, queue and detached task; a begin the
/// task-local one does not reach is never silently sent to the real platform unnoticed.
///
/// Serialized: the process-wide backend is one per process.
@Suite(.serialized, .failuresOnPurpose)
@MainActor
struct DefaultBackendReachTests {
    /// Begins a task on a `DispatchQueue` of its own and waits for it (with `async`: `sync` may run the
    /// block on the calling thread, where a task-local value is still visible).
    nonisolated private static func beginOnQueue(_ name: String) -> SafeBackgroundTask {
        let queue = DispatchQueue(label: "cache")
        let task = Locked<SafeBackgroundTask?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            task.withLock { $0 = SafeBackgroundTask.begin(name) }
            done.signal()
        }
        done.wait()
        return task.withLock { $0! }
    }

    @Test func theProcessWideBackendReachesABeginOnADispatchQueue() throws {
        let simulator = BackgroundTaskSimulator()
        let task = try withProcessWideBackgroundTaskBackend(simulator) {
            Self.beginOnQueue("Cache cleanup")
        }
        #expect(simulator.outstanding.map(\.name) == ["Cache cleanup"])
        task.end()
        try simulator.expectNoLeaks()
    }

    @Test func theProcessWideBackendReachesTaskDetached() async throws {
        let simulator = BackgroundTaskSimulator()
        let task = try await withProcessWideBackgroundTaskBackend(simulator) {
            await Task.detached { SafeBackgroundTask.begin("Detached refresh") }.value
        }
        #expect(simulator.outstanding.map(\.name) == ["Detached refresh"])
        task.end()
        try simulator.expectNoLeaks()
    }

    @Test func aSecondProcessWideBackendFailsLoudlyAndDoesNotRun() throws {
        let first = BackgroundTaskSimulator()
        var ranSecond = false
        let conflict = try withProcessWideBackgroundTaskBackend(first) {
            #expect(throws: ProcessWideBackendConflict.self) {
                try withProcessWideBackgroundTaskBackend(BackgroundTaskSimulator()) { ranSecond = true }
            }
            do {
                try withProcessWideBackgroundTaskBackend(BackgroundTaskSimulator()) {}
                return nil as ProcessWideBackendConflict?
            } catch let error as ProcessWideBackendConflict {
                return error
            }
        }
        #expect(!ranSecond)
        let error = try #require(conflict)
        #expect(error.installedAt.fileID == "BackgroundTaskKitTests/DefaultBackendReachTests.swift")
        #expect(error.description.contains(".serialized"))
    }

    @Test func theProcessWideBackendIsRemovedWhenTheScopeEnds() throws {
        let simulator = BackgroundTaskSimulator()
        try withProcessWideBackgroundTaskBackend(simulator) {}
        // Captured: another test's task-local scope may be in force meanwhile.
        let task = TestAttribution.shared.capturing(fileID: Self.fileID) { Self.beginOnQueue("After") }.result
        task.end()
        #expect(simulator.events.isEmpty)
        // And another one can be installed now.
        try withProcessWideBackgroundTaskBackend(BackgroundTaskSimulator()) {}
    }

    @Test func aTaskLocalOverrideStillWinsInsideItsScope() throws {
        let processWide = BackgroundTaskSimulator()
        let local = BackgroundTaskSimulator()
        try withProcessWideBackgroundTaskBackend(processWide) {
            withBackgroundTaskBackend(local) { SafeBackgroundTask.begin("Local").end() }
        }
        #expect(local.assertionHistory.map(\.assertion.name) == ["Local"])
        #expect(processWide.events.isEmpty)
    }

    /// The bug this prevents: a test overrides the default for its task, the code under test begins
    /// on its own queue, the begin goes to the real platform, and the test passes having tested
    /// nothing. Which test such a begin belongs to cannot be known when tests run in parallel, so it
    /// fails the run, naming its line, and no test: not this one, which may be innocent.
    @Test func aBeginTheTaskLocalOverrideDoesNotReachIsAnIssueOfTheRunNamingItsLine() throws {
        let simulator = BackgroundTaskSimulator()
        let (task, reports) = TestAttribution.shared.capturing(fileID: Self.fileID) {
            withBackgroundTaskBackend(simulator) { Self.beginOnQueue("Unreached") }
        }
        task.end()
        #expect(reports.map(\.test) == [nil])
        #expect(reports.map(\.callSite.fileID) == [Self.fileID])
        #expect(reports.map(\.callSite.function) == ["beginOnQueue(_:)"])
        #expect(simulator.events.isEmpty)
        try simulator.expectNoLeaks()
    }

    /// A scope entered outside any Swift Testing test (XCTest, which runs one test at a time, or a
    /// detached task) still fails its simulator's check for a begin it does not reach.
    @Test func aScopeEnteredOutsideAnyTestFailsItsSimulatorsCheck() async throws {
        let simulator = BackgroundTaskSimulator()
        let task = await TestAttribution.shared.capturing(fileID: Self.fileID) {
            await Task.detached {
                withBackgroundTaskBackend(simulator) { Self.beginOnQueue("Unreached") }
            }.value
        }.result
        task.end()
        let unreached = simulator.events.contains {
            if case .misuse(.defaultBackendNotReached(let callSite)) = $0 {
                callSite.fileID == Self.fileID
            } else {
                false
            }
        }
        #expect(unreached)
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    nonisolated private static let fileID = "BackgroundTaskKitTests/DefaultBackendReachTests.swift"
}
