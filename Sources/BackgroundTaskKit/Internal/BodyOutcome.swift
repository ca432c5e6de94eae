/// What a body run in a child task gave, handed to the caller, which reads it only after the child
/// has finished (`await child.value`).
final class BodyOutcome<Success, Failure: Error>: @unchecked Sendable {  // stored once, read after the child's end
    private var outcome: Result<Success, Failure>?

    func store(_ outcome: Result<Success, Failure>) {
        self.outcome = outcome
    }

    /// The outcome. Unreachable trap: both children store on every path (a `Result` from a closure
    /// that cannot throw, or a do/catch storing in each branch), and an async function always runs to
    /// its end (cancellation is cooperative), before the caller's `await` of it returns.
    func take() -> Result<Success, Failure> {
        guard let outcome else { preconditionFailure("the body's task finished without an outcome") }
        return outcome
    }
}
