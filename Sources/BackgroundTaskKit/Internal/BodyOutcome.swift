/// What a body run in a child task gave, handed to the caller, which reads it only after the child
/// has finished (`await child.value`).
// Unchecked: written once by the child task, then read once by the caller after the child's end.
final class BodyOutcome<Success, Failure: Error>: @unchecked Sendable {
    private var outcome: Result<Success, Failure>?

    func store(_ outcome: Result<Success, Failure>) {
        self.outcome = outcome
    }

    /// The outcome; the child always stores one before it finishes.
    func take() -> Result<Success, Failure> {
        guard let outcome else { preconditionFailure("the body's task finished without an outcome") }
        return outcome
    }
}
