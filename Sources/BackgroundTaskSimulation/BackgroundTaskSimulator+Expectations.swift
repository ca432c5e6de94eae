import BackgroundTaskKit
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

    /// The message followed by the log, one entry a line.
    public var description: String {
        ([message, "Simulator log:"] + log.map { "  \($0)" }).joined(separator: "\n")
    }
}

extension BackgroundTaskSimulator {
    /// Checks that the app was not terminated and holds no assertion.
    ///
    /// - Throws: ``SimulatorExpectationFailure`` naming the termination or the assertions still held.
    public func expectNoLeaks() throws {
        if let termination {
            throw failure("Expected no leaks, but the app was \(termination)")
        }
        let held = outstanding
        guard held.isEmpty else {
            let list = held.map(\.description).joined(separator: ", ")
            throw failure("Expected no leaks, but \(held.count) assertion(s) are still held: \(list)")
        }
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

    private func failure(_ message: String) -> SimulatorExpectationFailure {
        SimulatorExpectationFailure(message: message, log: log)
    }
}
