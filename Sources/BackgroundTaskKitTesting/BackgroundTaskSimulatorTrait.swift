import BackgroundTaskKit
import BackgroundTaskSimulation
import Testing

/// A Swift Testing trait that gives each test a fresh ``BackgroundTaskSimulator`` as the default backend of every face
/// begun on the test's task, and checks it for leaks when the test returns.
///
/// ```swift
/// @MainActor @Test(.backgroundTaskSimulator) func exportEndsItsTask() async throws {
///     let simulator = try #require(BackgroundTaskSimulator.current)
///     simulator.enterBackground()
///     await exporter.export()  // its SafeBackgroundTask uses the simulator
///     simulator.advance(by: 60)
/// }  // the trait fails the test if a task leaked
/// ```
///
/// On a suite, every test in it (and in its nested suites) gets its own simulator. The simulator is installed with
/// ``withBackgroundTaskBackend(_:operation:)``, so it reaches the test's task and the tasks that inherit its task-locals
/// (child tasks, `Task { }`), not `DispatchQueue` work, other threads or `Task.detached`: a begin there is reported
/// as an issue of the run that names its line, and fails no test, because which test made it cannot be known. For
/// such code use ``withProcessWideBackgroundTaskBackend(_:fileID:line:operation:)`` in a `.serialized` suite.
public struct BackgroundTaskSimulatorTrait: TestTrait, SuiteTrait, TestScoping {
    /// The policy numbers of each test's simulator.
    public var configuration: SimulatorConfiguration
    /// The system misbehaviours each simulator injects from the start.
    public var faults: Set<SimulatorFault>
    /// Whether the trait checks for leaks after the test and records its failure as an issue at the test's declaration,
    /// with the run's timeline attached (`TESTNAME-timeline.svg`). The check first lets the app's pending work finish
    /// (``BackgroundTaskSimulator/settle(within:)``: a manager's linger, a renewal, ends in flight), then runs
    /// ``BackgroundTaskSimulator/expectNoLeaks()``. Turn it off for a test that leaves a task held on purpose.
    public var checksForLeaks: Bool

    /// Creates the trait; see ``Trait/backgroundTaskSimulator(configuration:faults:checksForLeaks:)``.
    public init(configuration: SimulatorConfiguration, faults: Set<SimulatorFault>, checksForLeaks: Bool) {
        self.configuration = configuration
        self.faults = faults
        self.checksForLeaks = checksForLeaks
    }

    /// Applies to every test of a suite, one simulator each.
    public var isRecursive: Bool { true }

    /// One scope a test case; none for a suite itself.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with a fresh simulator as its default backend and ``BackgroundTaskSimulator/current``, then lets
    /// its pending work finish and checks it for leaks.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        TestAttribution.install()
        TimelineAttachments.install()
        let simulator = BackgroundTaskSimulator(configuration: configuration, faults: faults)
        try await BackgroundTaskSimulator.$current.withValue(simulator) {
            try await withBackgroundTaskBackend(simulator) {
                try await function()
                // Inside the test's scopes: a timer settling plays begins on this simulator too.
                if checksForLeaks { await simulator.settle() }
            }
        }
        guard checksForLeaks else { return }
        do {
            try simulator.expectNoLeaks()
        } catch {
            TestKitIssueRecording.record(
                error, "The .backgroundTaskSimulator trait found a leak after the test returned",
                sourceLocation: test.sourceLocation)
        }
    }
}

extension Trait where Self == BackgroundTaskSimulatorTrait {
    /// A fresh ``BackgroundTaskSimulator`` for each test, with the default iOS policy, checked for leaks after the test.
    public static var backgroundTaskSimulator: Self {
        backgroundTaskSimulator()
    }

    /// A fresh ``BackgroundTaskSimulator`` for each test.
    ///
    /// - Parameters:
    ///   - configuration: The policy numbers; the defaults are those of current iOS.
    ///   - faults: System misbehaviours to inject from the start.
    ///   - checksForLeaks: Whether to fail the test when ``BackgroundTaskSimulator/expectNoLeaks()`` fails after it
    ///     returns.
    public static func backgroundTaskSimulator(
        configuration: SimulatorConfiguration = SimulatorConfiguration(),
        faults: Set<SimulatorFault> = [],
        checksForLeaks: Bool = true
    ) -> Self {
        BackgroundTaskSimulatorTrait(configuration: configuration, faults: faults, checksForLeaks: checksForLeaks)
    }
}

extension BackgroundTaskSimulator {
    /// The simulator the ``BackgroundTaskSimulatorTrait`` (`.backgroundTaskSimulator`) made for the running test; `nil`
    /// outside such a test and where its task-locals do not reach.
    @TaskLocal public static var current: BackgroundTaskSimulator?
}
