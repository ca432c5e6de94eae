import BackgroundTaskKitTesting
import BackgroundTaskScenarios
import Foundation
import Testing
import ToolTestSupport

/// The scenarios of issue 24: BGTaskScheduler tasks, continued processing, and work that must stop before
/// suspension. Each naive flow is killed or expired as iOS would; each face is clean, completing every launched task
/// once and ending every assertion it began.
@MainActor
struct ScheduledScenarioTests {
    nonisolated private static let faces: [(scenario: String, variant: String)] = [
        ("lock-at-suspension", "closure"), ("lock-at-suspension", "manager"),
        ("refresh-never-completes", "scheduler"), ("refresh-never-completes", "scheduler-callback"),
        ("processing-expiry-ignored", "scheduler"), ("continued-stall", "continued"),
        ("unregistered-launch", "scheduler"), ("late-registration", "scheduler"),
    ]

    @Test(arguments: faces.map { "\($0.scenario)/\($0.variant)" })
    func everyFaceIsCleanAndCompletesEachLaunchedTaskOnce(_ run: String) async throws {
        let parts = run.split(separator: "/").map(String.init)
        let scenario = try #require(ScenarioCatalog.scenario(withID: parts[0]))
        let variant = try #require(scenario.variant(named: parts[1]))
        let (result, simulator) = await ScenarioRunner.run(variant, of: scenario)

        #expect(result.outcome == .clean, "\(simulator.log)")
        #expect(simulator.termination == nil)
        #expect(simulator.heldFileLocks.isEmpty)
        let launched = simulator.events.filter { if case .scheduledTaskLaunched = $0 { true } else { false } }
        let completed = simulator.events.filter { if case .scheduledTaskCompleted = $0 { true } else { false } }
        let ignored = simulator.events.filter { if case .scheduledTaskCompletionIgnored = $0 { true } else { false } }
        #expect(completed.count == launched.count)
        #expect(ignored.isEmpty)
        let begun = simulator.events.filter { if case .began = $0 { true } else { false } }
        let ended = simulator.events.filter { if case .ended = $0 { true } else { false } }
        #expect(begun.count == ended.count)
    }

    /// Out of background time, the faces say the begin was refused before the save takes its lock: clean, and the
    /// lock is never taken.
    @Test(arguments: ["safe", "closure"])
    func refusedInTheBackgroundTheFacesDeclineTheSave(_ name: String) async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "refused-in-background"))
        let variant = try #require(scenario.variant(named: name))
        let (result, simulator) = await ScenarioRunner.run(variant, of: scenario)
        #expect(result.outcome == .clean, "\(simulator.log)")
        #expect(simulator.termination == nil)
        #expect(simulator.events.contains(.notGranted(name: "Save progress")))
        #expect(!simulator.events.contains(.fileLockTaken(name: "Uploads.sqlite")))
    }

    @Test func theContinuedExportWithoutProgressIsExpiredAsStalled() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "continued-stall"))
        let (result, simulator) = await ScenarioRunner.run(try #require(scenario.variant(named: "naive")), of: scenario)
        #expect(
            result
                == ScenarioResult(scenario: "continued-stall", variant: "naive", outcome: .expired, code: nil, time: 60)
        )
        #expect(simulator.termination == nil)
        #expect(
            simulator.events.contains(.scheduledTaskExpired(identifier: "com.example.app.export.1", hasHandler: true)))
    }

    @Test func theNaiveFlowEndsItsAssertionInTimeButSuspendsHoldingTheLock() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "lock-at-suspension"))
        let (_, simulator) = await ScenarioRunner.run(try #require(scenario.variant(named: "naive")), of: scenario)
        #expect(simulator.termination?.heldAssertions == [], "the assertion was ended in time; the lock was not")
        #expect(simulator.events.contains(.ended(id(1))))
    }
}
