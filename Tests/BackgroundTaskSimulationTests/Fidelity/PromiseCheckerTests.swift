import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import Testing

@testable import BackgroundTaskPromiseChecking

/// The randomized checker of the promise: a bounded run here (CI), the long run with
/// `swift run -c release promise-check`.
@MainActor
struct PromiseCheckerTests {
    @Test func thePromiseHoldsOverSeededRandomSequences() async {
        // Beside the whole suite, blocking tests can keep the cooperative pool busy for seconds (13 s once, on two
        // cores): a step counts as hung after a minute here, after 10 s in `promise-check`.
        let summary = await PromiseChecker.$stepTimeLimit.withValue(60) {
            await PromiseChecker.check(steps: 6_000, seed: 20_261_122)
        }
        if let violation = summary.violation { Issue.record("\(violation)") }
        #expect(summary.steps >= 6_000)
        #expect(summary.runs > 50)
    }

    @Test func theSameSeedGeneratesTheSameRun() async {
        // A step counts as hung after a minute here, as in the test above.
        let (first, second) = await PromiseChecker.$stepTimeLimit.withValue(60) {
            (
                await PromiseChecker.generateAndRun(seed: 42, steps: 40),
                await PromiseChecker.generateAndRun(seed: 42, steps: 40)
            )
        }
        #expect(first.operations == second.operations)
        #expect(first.setup == second.setup)
    }

    /// The checker must catch a broken promise: raw code that ends an assertion twice, run as
    /// "app code", is reported, shrunk, and printed as Swift.
    @Test func aBrokenPromiseIsCaughtShrunkAndPrintedAsSwift() async {
        let setup = PromiseSetup()
        let operations: [PromiseOperation] = [
            .begin(slot: 0, face: .safe(diagnosing: false), cleanup: .none), .advance(2), .end(slot: 0),
        ]
        // A world whose simulator then sees a second end of the task's assertion, as a buggy face would
        // produce: the check must report it.
        let world = PromiseWorld(setup: setup)
        for operation in operations { await world.perform(operation) }
        #expect(world.check() == nil)
        world.simulator.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 1))
        #expect(world.check()?.contains("second end of 1 (0x1)") == true)

        // A system that allows one assertion at a time: two tasks at once get the app killed, which the
        // checker reports, and shrinks to the two begins.
        var tight = PromiseSetup()
        tight.simulator.assertionLimit = 1
        let failing: [PromiseOperation] = [
            .advance(1), .begin(slot: 0, face: .safe(diagnosing: false), cleanup: .spend), .advance(1),
            .begin(slot: 1, face: .safe(diagnosing: true), cleanup: .none), .advance(2), .end(slot: 0),
        ]
        let kind = await PromiseChecker.run(failing, setup: tight)
        #expect(kind == "terminated 0xbada5e47 (assertionLimitExceeded)")
        let violation = await PromiseChecker.shrink(
            PromiseViolation(kind: kind ?? "", details: "", setup: tight, operations: failing, seed: 0))
        #expect(violation.operations.count == 2)
        let text = violation.description
        #expect(text.contains("@MainActor @Test func reproduction() async throws {"))
        #expect(text.contains("SafeBackgroundTask.begin(\"task 1\", backend: diagnostics"))
        #expect(text.contains("Simulator log of the shrunk run:"))
        #expect(!text.contains("Optional("))
    }
}
