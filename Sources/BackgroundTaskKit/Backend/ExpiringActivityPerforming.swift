/// The expiring-activity API of `ProcessInfo`, copied to the letter so that
/// ``ExpiringActivityBackend`` compiles and is tested on every platform.
///
/// `ProcessInfo` conforms with an empty extension (in `AppleConformances.swift`) on iOS, tvOS,
/// watchOS, visionOS and Mac Catalyst; app extensions and watchOS apps use it instead of
/// `UIApplication`. Tests conform a stand-in with the identical declaration.
///
/// The protocol does not require `Sendable`, because not every SDK declares `ProcessInfo`
/// `Sendable`. The backend nevertheless calls a conformer from any thread, concurrently.
///
/// ```swift
/// let backend = ExpiringActivityBackend(ProcessInfo.processInfo)
/// ```
///
/// ## Conformance requirements
///
/// - ``performExpiringActivity(withReason:using:)`` must be safe to call from any thread,
///   concurrently, as `ProcessInfo` is documented to be.
/// - It runs the block asynchronously, never on the calling thread before it returns: the backend
///   waits for the first invocation, which then parks its thread.
/// - The first invocation holds the assertion for as long as it runs and gets `expired == false`, or
///   `true` when no assertion could be taken. When time runs out while the first invocation is still
///   running, the block is called a second time, concurrently, on another thread, with `true`.
public protocol ExpiringActivityPerforming: AnyObject {
    /// Runs `block` asynchronously while an assertion keeps the process from being suspended.
    ///
    /// - Parameters:
    ///   - reason: A description of the work, for debugging; the system may print it.
    ///   - block: Called first with `expired == false` (the assertion is held until it returns) or
    ///     `true` (no assertion); called a second time with `true`, concurrently, when time runs out
    ///     while the first invocation is still running.
    ///
    /// > Important: The assertion lasts only while the first invocation runs: it must block its
    /// > thread until the work is done, and return promptly once it is called with `true` again.
    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void)
}
