import BackgroundTaskKitTesting
import BackgroundTaskScenarios
import Foundation
import Testing
import ToolTestSupport

/// What iOS does to each naive flow: stated here, independently of the catalog, so that a change to
/// the simulator or a scenario that alters the outcome fails.
private let expectedNaiveOutcomes:
    [(scenario: String, code: TerminationCode, reason: TerminationReason, time: Double)] =
        [
            ("property-overwrite", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("missing-handler", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("late-end", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("early-return", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("capture-before-assignment", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("double-end", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("too-many-tasks", .tooManyAssertions, .assertionLimitExceeded, 0),
            ("slow-handler", .watchdogTimeout, .expirationHandlersTookTooLong, 31),  // handlers at 26 s + 5 s
            ("extension-activity", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("third-party-sdk", .watchdogTimeout, .assertionsHeldAfterExpiration, 30),
            ("lock-at-suspension", .suspendedWithLockedFile, .suspendedHoldingFileLock, 26),  // handlers at 26 s
            // The save begun in the upload's handler at 26 s is refused; the app is suspended holding its lock.
            ("refused-in-background", .suspendedWithLockedFile, .suspendedHoldingFileLock, 26),
            ("refresh-never-completes", .watchdogTimeout, .scheduledTaskNotCompleted, 36),  // 1 + 30 s, then 5 s
            ("processing-expiry-ignored", .suspendedWithLockedFile, .suspendedHoldingFileLock, 1),
            ("unregistered-launch", .uncaughtException, .noLaunchHandlerRegistered, 1),  // launched at 1 s
            ("late-registration", .uncaughtException, .launchHandlerRegisteredAfterLaunch, 1),  // a scene at 1 s
        ]

/// Scenarios whose naive flow loses a person's job to the system's expiry, with the time it expires.
private let expectedExpiries: [String: Double] = ["continued-stall": 60]

/// The variants of scenarios that are not written against a `TaskStarter`.
private let ownVariants: [String: [String]] = [
    "third-party-sdk": ["naive", "traced", "traced-rescue"],
    "lock-at-suspension": ["naive", "closure", "manager"],
    "refused-in-background": ["naive", "safe", "closure"],
    "refresh-never-completes": ["naive", "scheduler", "scheduler-callback"],
    "processing-expiry-ignored": ["naive", "scheduler"],
    "unregistered-launch": ["naive", "scheduler"],
    "late-registration": ["naive", "scheduler"],
    "continued-stall": ["naive", "continued"],
]

/// Scenarios whose naive flow iOS warns about instead of terminating, with the variants that escape
/// the warning.
private let expectedWarnings: [String: Set<String>] = [
    "foreground-upload": ["manager-coalesced", "manager-lazy"],
    "check-then-end-race": Set(ScenarioVariant.correctVariantNames),
    "debugger-run": Set(ScenarioVariant.correctVariantNames),
]

@MainActor
struct ScenarioCatalogTests {
    @Test func theCatalogCoversEveryExpectedScenarioOnce() {
        #expect(
            Set(ScenarioCatalog.all.map(\.id))
                == Set(expectedNaiveOutcomes.map(\.scenario)).union(expectedWarnings.keys).union(expectedExpiries.keys)
        )
        #expect(
            ScenarioCatalog.all.count == expectedNaiveOutcomes.count + expectedWarnings.count + expectedExpiries.count)
        for scenario in ScenarioCatalog.all {
            #expect(
                scenario.variants.map(\.name)
                    == ownVariants[scenario.id, default: [ScenarioVariant.naive] + ScenarioVariant.correctVariantNames]
            )
        }
    }

    @Test(arguments: expectedNaiveOutcomes.map(\.scenario))
    func theNaiveFlowIsTerminatedTheWayIOSTerminatesIt(_ id: String) async throws {
        let expected = try #require(expectedNaiveOutcomes.first { $0.scenario == id })
        let scenario = try #require(ScenarioCatalog.scenario(withID: id))
        let naive = try #require(scenario.variant(named: ScenarioVariant.naive))
        let (result, simulator) = await ScenarioRunner.run(naive, of: scenario)
        let termination = try simulator.expectTermination(expected.code, at: expected.time)
        #expect(termination.reason == expected.reason)
        #expect(
            result
                == ScenarioResult(
                    scenario: id,
                    variant: "naive",
                    outcome: .terminated,
                    code: expected.code.description,
                    time: expected.time
                )
        )
    }

    @Test(
        arguments: ScenarioCatalog.all.map(\.id).filter { ownVariants[$0] == nil },
        ScenarioVariant.correctVariantNames
    )
    func theCorrectFlowEndsCleanWithEveryAssertionEndedOnce(_ id: String, variant: String) async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: id))
        let correct = try #require(scenario.variant(named: variant))
        let (result, simulator) = await ScenarioRunner.run(correct, of: scenario)
        try simulator.expectNoLeaks()
        let warned = expectedWarnings[id].map { !$0.contains(variant) } ?? false
        #expect(result.outcome == (warned ? .warned : .clean))
        #expect(result.code == nil)
        let begun = simulator.events.filter { if case .began = $0 { true } else { false } }.count
        let ended = simulator.events.filter { if case .ended = $0 { true } else { false } }.count
        #expect(begun > 0 || variant == "manager-lazy")  // the lazy manager raises none in the foreground
        #expect(begun == ended)
        #expect(!simulator.consoleMessages.contains { if case .cannotEndTask = $0 { true } else { false } })
    }

    @Test func aLongForegroundUploadIsWarnedWithEveryFaceThatHoldsItsAssertionFromTheStart() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "foreground-upload"))
        var outcomes: [String: ScenarioResult.Outcome] = [:]
        for variant in scenario.variants {
            let (result, simulator) = await ScenarioRunner.run(variant, of: scenario)
            outcomes[variant.name] = result.outcome
            #expect(simulator.termination == nil)
        }
        #expect(outcomes.filter { $0.value == .clean }.keys.sorted() == ["manager-coalesced", "manager-lazy"])
        #expect(outcomes["naive"] == .warned)
    }

    @Test func aThirdPartyLeakKillsTheAppUnlessTheTracerRescuesIt() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "third-party-sdk"))
        #expect(scenario.variants.map(\.name) == ["naive", "traced", "traced-rescue"])
        for name in ["naive", "traced"] {
            let (result, simulator) = await ScenarioRunner.run(
                try #require(scenario.variant(named: name)), of: scenario)
            #expect(result.outcome == .terminated)
            #expect(simulator.termination?.heldAssertions.map(\.name) == ["Analytics flush"])
        }
        let (rescued, simulator) = await ScenarioRunner.run(
            try #require(scenario.variant(named: "traced-rescue")), of: scenario)
        #expect(rescued.outcome == .clean)
        #expect(simulator.termination == nil)
        try simulator.expectNoLeaks()
        // The rescue's end reached the system inside the SDK's handler call, after the SDK's own code.
        let events = simulator.events
        let called = try #require(events.firstIndex { if case .expirationHandlerCalled = $0 { true } else { false } })
        let ended = try #require(events.firstIndex { if case .ended = $0 { true } else { false } })
        let returned = try #require(
            events.firstIndex { if case .expirationHandlerReturned = $0 { true } else { false } })
        #expect(called < ended && ended + 1 == returned)
    }

    // MARK: - What each naive flow shows

    @Test func theOverwrittenIdentifierIsTheOneLeftHeld() async throws {
        let (_, simulator) = try await runNaive("property-overwrite")
        #expect(simulator.termination?.heldAssertions.map(\.name) == ["Export album 1"])
    }

    @Test func theDoubleEndLogsIOSsMessageForTheNewerTask() async throws {
        let (_, simulator) = try await runNaive("double-end")
        #expect(simulator.consoleMessages.filter { $0 == .cannotEndTask(id(2)) }.count == 2)
        #expect(simulator.termination?.heldAssertions.map(\.name) == ["Sync contacts"])
    }

    @Test func theLateEndArrivesAfterTheTermination() async throws {
        let (_, simulator) = try await runNaive("late-end")
        // The dispatched end runs once the main queue is free; by then the app is gone.
        await Task.yield()
        #expect(!simulator.events.contains(.ended(id(1))))
        #expect(simulator.termination?.heldAssertions.map(\.name) == ["Refresh feed"])
    }

    @Test func theTooManyTasksFlowDiesInTheForegroundAtTheThousandAndFirstBegin() async throws {
        let (_, simulator) = try await runNaive("too-many-tasks")
        #expect(simulator.termination?.heldAssertions.count == 1001)
        #expect(!simulator.events.contains(.appStateChanged(.background)))
    }

    @Test func theCheckThenEndRacePrintsIOSsCantEndMessage() async throws {
        let (result, simulator) = try await runNaive("check-then-end-race")
        #expect(result.outcome == .warned)
        #expect(simulator.consoleMessages == [.cannotEndTask(id(1))])
        #expect(simulator.termination == nil)
    }

    @Test func underTheDebuggerTheLeakOnlyWarns() async throws {
        let (result, simulator) = try await runNaive("debugger-run")
        #expect(result.outcome == .warned)
        #expect(simulator.termination == nil)
        #expect(
            simulator.events.contains { event in
                if case .terminationPreventedByDebugger(let termination) = event {
                    termination.code == .watchdogTimeout && termination.time == 30
                } else {
                    false
                }
            }
        )
    }

    @Test func theExtensionThatIgnoresExpiryIsKilledHoldingItsActivity() async throws {
        let (_, simulator) = try await runNaive("extension-activity")
        #expect(simulator.termination?.heldAssertions.map(\.name) == ["Save shared photo"])
    }

    private func runNaive(_ id: String) async throws -> (ScenarioResult, BackgroundTaskSimulator) {
        let scenario = try #require(ScenarioCatalog.scenario(withID: id))
        let naive = try #require(scenario.variant(named: ScenarioVariant.naive))
        return await ScenarioRunner.run(naive, of: scenario)
    }
}
