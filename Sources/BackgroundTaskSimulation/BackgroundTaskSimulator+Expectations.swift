import BackgroundTaskKit
import BackgroundTaskTimeline
import Foundation

/// Thrown by the simulator's `expect…` helpers; its description says what went wrong and shows the
/// simulator's log.
///
/// In Swift Testing a thrown error fails the test with that description:
///
/// ```swift
/// @MainActor @Test func savesCleanly() throws {
///     let simulator = BackgroundTaskSimulator()
///     // …
///     try simulator.expectNoLeaks()
/// }
/// ```
public struct SimulatorExpectationFailure: Error, CustomStringConvertible {
    /// What was expected and what happened instead.
    public var message: String
    /// The simulator's log at the time of the failure.
    public var log: [SimulatorLogEntry]
    /// Every assertion granted, with how long it was held.
    public var assertions: [SimulatedAssertionHistory]
    /// The run up to the failure as a picture: `BackgroundTaskTimeline.svg(options:)` draws it, and
    /// `BackgroundTaskTimeline.text(options:)` prints it.
    ///
    /// In a Swift Testing test that imports `BackgroundTaskKitTesting`, a failing `expect…` helper attaches this
    /// timeline's SVG to the test (`TESTNAME-timeline.svg`), so that it appears beside the failure in Xcode's test
    /// report; `swift test --attachments-path FOLDER` writes the attachments to a folder (Linux CI).
    public var timeline: BackgroundTaskTimeline

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - message: What was expected and what happened instead.
    ///   - log: The simulator's log.
    ///   - assertions: Every assertion granted, with how long it was held.
    ///   - timeline: The run as a picture; `nil` draws one from `log` and `assertions` with the default policy (the
    ///     simulator's `expect…` helpers pass the picture `BackgroundTaskSimulator.timeline(title:)` draws, with the
    ///     simulator's own policy).
    public init(
        message: String, log: [SimulatorLogEntry], assertions: [SimulatedAssertionHistory] = [],
        timeline: BackgroundTaskTimeline? = nil
    ) {
        self.message = message
        self.log = log
        self.assertions = assertions
        self.timeline =
            timeline ?? BackgroundTaskTimeline(simulatorLog: log, assertions: assertions, title: "Simulated run")
    }

    /// The message, the log, one entry a line, the assertions with their held times, and the timeline as a text
    /// chart (what a terminal shows of the picture the test kit attaches).
    public var description: String {
        var lines = [message, "Simulator log:"] + log.map { "  \($0)" }
        if !assertions.isEmpty {
            lines += ["Assertions:"] + assertions.map { "  \($0)" }
        }
        lines += ["Timeline:", timeline.text().trimmingCharacters(in: .newlines)]
        return lines.joined(separator: "\n")
    }
}

extension BackgroundTaskSimulator {
    /// Checks that the app was not terminated, holds no assertion, and that no task of
    /// BackgroundTaskKit's was released while running (ended by the safety net: the work lost track
    /// of its task, which on a device keeps the app awake until the owner happens to be released).
    ///
    /// It does not fail when an assertion was held until the system expired it and its handler ended
    /// it; ``expectNoExpiry()`` does. It looks at this moment only: a coalescing `BackgroundTaskManager`'s shared
    /// assertion outlives its last task by its linger, so call ``settle(within:)`` first where one may be lingering.
    ///
    /// - Throws: ``SimulatorExpectationFailure`` naming the termination, the assertions still held,
    ///   the lines whose tasks went to the platform's backend while this simulator was a task-local
    ///   default (``SimulatorMisuse/defaultBackendNotReached(_:)``), or the lines whose tasks the
    ///   safety net ended.
    public func expectNoLeaks() throws {
        if let termination {
            throw failure("Expected no leaks, but the app was \(termination)")
        }
        let held = outstanding
        guard held.isEmpty else {
            let list = held.map(\.description).joined(separator: ", ")
            let timersPending = state.withLock { !$0.timers.isEmpty }
            let hint =
                timersPending
                ? ". An app timer is still pending (a BackgroundTaskManager's shared assertion outlives its last task "
                    + "by its linger): `await simulator.settle()` first lets it run, as the .backgroundTaskSimulator "
                    + "trait does" : ""
            throw failure("Expected no leaks, but \(held.count) assertion(s) are still held: \(list)\(hint)")
        }
        let unreached = events.compactMap { event -> BackgroundTaskCallSite? in
            if case .misuse(.defaultBackendNotReached(let callSite)) = event { callSite } else { nil }
        }
        guard unreached.isEmpty else {
            let list = unreached.map(\.description).joined(separator: "; ")
            throw failure(
                "Expected no leaks, but \(unreached.count) task(s) began on the platform's backend instead of this "
                    + "simulator, untested: \(list). withBackgroundTaskBackend is task-local and does not reach "
                    + "DispatchQueue work, other threads or Task.detached; use withProcessWideBackgroundTaskBackend."
            )
        }
        let caught = safetyNetEnds
        guard caught.isEmpty else {
            let list = caught.map(\.description).joined(separator: "; ")
            throw failure(
                "Expected no leaks, but \(caught.count) task(s) were released while running and ended by the "
                    + "safety net: \(list). End each task when its work is done (or use withBackgroundTask)."
            )
        }
    }

    /// Checks that the background time never ran out while an assertion was held: no expiration
    /// handler was called by an expiry.
    ///
    /// An assertion held until expiry is the symptom of a lost end (an early return, a completion
    /// that never comes): the app stays awake until its time runs out, and if a handler then ends the
    /// task it is suspended instead of killed, so ``expectNoLeaks()`` passes. Use this where the
    /// question is "does my work end its task when it finishes?".
    ///
    /// - Throws: ``SimulatorExpectationFailure`` naming the assertions the expiry found held, with how
    ///   long each was held.
    public func expectNoExpiry() throws {
        let expiries = log.filter { $0.event == .backgroundTimeExpired }
        guard let first = expiries.first else { return }
        let expired = assertionHistory.filter { $0.expirationHandlerCalledAt != nil }
        let list = expired.map(\.description).joined(separator: "; ")
        throw failure(
            "Expected no expiry, but the background time ran out at \(formatSeconds(first.time)) s with "
                + "\(expired.count) assertion(s) held: \(list)"
        )
    }

    /// Checks that the app was terminated with `code`, at `time` when given.
    ///
    /// - Parameters:
    ///   - code: The expected exception code.
    ///   - time: The expected virtual time of the termination, or `nil` not to check it.
    /// - Returns: The termination record, for further checks.
    /// - Throws: ``SimulatorExpectationFailure`` when the app is alive or died otherwise.
    @discardableResult
    public func expectTermination(_ code: TerminationCode, at time: TimeInterval? = nil) throws
        -> SimulatedTermination
    {
        guard let termination else {
            throw failure("Expected termination \(code), but the app is \(appState)")
        }
        guard termination.code == code, time == nil || termination.time == time else {
            let when = time.map { " at \(formatSeconds($0)) s" } ?? ""
            throw failure("Expected termination \(code)\(when), but the app was \(termination)")
        }
        return termination
    }

    /// Checks that the system printed `message`.
    ///
    /// - Parameter message: The expected console message.
    /// - Throws: ``SimulatorExpectationFailure`` when it was not printed.
    public func expectConsoleMessage(_ message: ConsoleMessage) throws {
        guard consoleMessages.contains(message) else {
            throw failure("Expected the console message \"\(message.text)\"")
        }
    }

    /// A failure with the simulator's log, assertions and timeline. An `expect…` helper's failure is reported to the
    /// test kit, which attaches the timeline to the current test; a `waitFor…` helper's is not (code waits with
    /// `try?` where a timeout is no failure).
    func failure(_ message: String, isExpectation: Bool = true) -> SimulatorExpectationFailure {
        let run = run(title: "Simulated run")
        let failure = SimulatorExpectationFailure(
            message: message, log: run.log, assertions: run.assertions, timeline: run.timeline)
        if isExpectation { ExpectationFailureReporting.report(failure) }
        return failure
    }
}
