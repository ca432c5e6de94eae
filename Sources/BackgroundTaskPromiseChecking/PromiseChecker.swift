import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// The randomized checker of the package's promise: seeded sequences of app and system operations
/// over the simulator, through every synchronous face and manager configuration, checked after every
/// step; a violation is shrunk to a minimal sequence and printed as Swift code.
///
/// The promise checked (see `Documentation/PromiseChecker.md`): no termination but the unavoidable
/// one (an assertion the system gave no handler, not ended by its owner in time); no "Can't end"
/// message (the package never ends an assertion twice); no misuse of the system; each cleanup at
/// most once; after everything is ended, every granted assertion ended exactly once; no step that
/// hangs.
@MainActor
public enum PromiseChecker {
    /// What a batch of runs did.
    public struct Summary: Sendable {
        /// Runs made.
        public var runs = 0
        /// Operations performed in all runs.
        public var steps = 0
        /// Runs an unavoidable termination ended early.
        public var unavoidableTerminations = 0
        /// The first violation, shrunk.
        public var violation: PromiseViolation?

        /// An empty summary.
        public init() {}
    }

    /// Runs until `steps` operations have been performed (or a violation is found), in runs of
    /// `stepsPerRun` operations, seeded from `seed`.
    public static func check(steps: Int, stepsPerRun: Int = 60, seed: UInt64 = 1) async -> Summary {
        var summary = Summary()
        var runSeed = seed
        while summary.steps < steps {
            let (operations, setup, outcome, stoppedEarly) = await generateAndRun(seed: runSeed, steps: stepsPerRun)
            summary.runs += 1
            summary.steps += operations.count
            if stoppedEarly { summary.unavoidableTerminations += 1 }
            if let kind = outcome {
                summary.violation = await shrink(
                    PromiseViolation(kind: kind, details: "", setup: setup, operations: operations, seed: runSeed))
                return summary
            }
            runSeed &+= 1
        }
        return summary
    }

    /// Generates and runs one sequence; returns the operations performed and the violation, if any.
    static func generateAndRun(
        seed: UInt64,
        steps: Int,
        trace: Bool = false
    ) async -> (operations: [PromiseOperation], setup: PromiseSetup, violation: String?, stoppedEarly: Bool) {
        var random = PromiseRandom(seed: seed)
        let setup = PromiseSetup.random(using: &random)
        var generator = PromiseGenerator(random: random, setup: setup)
        let world = PromiseWorld(setup: setup)
        var operations: [PromiseOperation] = []
        for _ in 0..<steps {
            let operation = generator.next()
            operations.append(operation)
            let logCount = trace ? world.simulator.log.count : 0
            if trace { print("→ \(operation)") }
            defer { if trace { printTrace(of: operation, in: world, from: logCount) } }
            if let violation = await perform(operation, in: world) { return (operations, setup, violation, false) }
            if world.stopped { return (operations, setup, nil, true) }
        }
        return (operations, setup, await world.finish(), world.stopped)
    }

    /// Runs `operations` from a fresh world; returns the violation, if any.
    static func run(_ operations: [PromiseOperation], setup: PromiseSetup) async -> String? {
        let world = PromiseWorld(setup: setup)
        for operation in operations {
            if let violation = await perform(operation, in: world) { return violation }
            if world.stopped { return nil }
        }
        return await world.finish()
    }

    /// Real seconds after which a step counts as hung (a broken promise): 10. A test run beside other tests raises it,
    /// as they may keep the cooperative pool (two threads on two cores), which an async body's child task starts on, busy
    /// for seconds.
    @TaskLocal static var stepTimeLimit: TimeInterval = 10

    private static func perform(_ operation: PromiseOperation, in world: PromiseWorld) async -> String? {
        // A step is mostly synchronous main-actor work: let other main-actor work (other tests) in between steps.
        await Task.yield()
        let start = Date()
        await world.perform(operation)
        let took = Date().timeIntervalSince(start)
        if let violation = world.check() { return violation }
        if took > stepTimeLimit { return "a step took over \(Int(stepTimeLimit)) s of real time: \(operation)" }
        return nil
    }

    /// Removes operations while the same kind of violation still happens (at most a few hundred
    /// re-runs), then attaches the log of the minimal run.
    static func shrink(_ violation: PromiseViolation) async -> PromiseViolation {
        var operations = violation.operations
        var attempts = 0
        let deadline = Date(timeIntervalSinceNow: 120)
        var budgetLeft: Bool { attempts < 400 && Date() < deadline }
        var chunk = max(operations.count / 2, 1)
        while chunk >= 1, budgetLeft {
            var index = 0
            var removedAny = false
            while index < operations.count, budgetLeft {
                var candidate = operations
                candidate.removeSubrange(index..<min(index + chunk, candidate.count))
                attempts += 1
                if await run(candidate, setup: violation.setup) == violation.kind {
                    operations = candidate
                    removedAny = true
                } else {
                    index += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        var shrunk = violation
        shrunk.operations = operations
        let world = PromiseWorld(setup: violation.setup)
        for operation in operations { await world.perform(operation) }
        _ = await world.finish()
        shrunk.details = (["Simulator log of the shrunk run:"] + world.simulator.log.map { "  \($0)" })
            .joined(separator: "\n")
        return shrunk
    }
}

extension PromiseChecker {
    /// Runs the single run of `seed` `times` times and returns each outcome: whether a violation
    /// reproduces (for investigating one).
    /// With `trace`, prints each operation and what the simulator logged while it ran.
    public static func replay(seed: UInt64, steps: Int = 60, times: Int, trace: Bool = false) async -> [String?] {
        var outcomes: [String?] = []
        for _ in 0..<times { outcomes.append(await generateAndRun(seed: seed, steps: steps, trace: trace).violation) }
        return outcomes
    }

    private static func printTrace(of operation: PromiseOperation, in world: PromiseWorld, from logCount: Int) {
        for entry in world.simulator.log.dropFirst(logCount) { print("    \(entry)") }
    }
}
