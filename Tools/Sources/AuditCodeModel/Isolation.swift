/// Where a body says it runs.
public enum Isolation: Sendable, Equatable {
    /// Nothing in the declaration says.
    case unstated
    /// `@MainActor` on it or on its type.
    case mainActor
    /// `nonisolated`, or a `@Sendable` closure: any thread.
    case nonisolated
    /// A method of an actor other than the main actor (its serial executor).
    case actor(String)
}
