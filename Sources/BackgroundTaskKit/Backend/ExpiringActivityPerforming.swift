/// `ProcessInfo`'s expiring-activity API, copied to the letter so ``ExpiringActivityBackend`` is tested anywhere.
///
/// `ProcessInfo` conforms with an empty extension (in `AppleConformances.swift`) on iOS, tvOS, watchOS, visionOS and
/// Mac Catalyst, where app extensions and watchOS apps use it instead of `UIApplication`; tests conform a stand-in with
/// the identical declaration. It does not require `Sendable`, as not every SDK declares `ProcessInfo` `Sendable`.
/// ## Conformance requirements
///
/// - Calls from any thread, concurrently, must be safe, as `ProcessInfo`'s are documented to be.
/// - The block runs asynchronously, never on the caller's thread before returning; the backend awaits its first call.
/// - The first invocation holds the assertion while it runs and gets `expired == false`, or `true` if none could be
///   taken. If time runs out meanwhile, the block is called again, concurrently, on another thread, with `true`.
public protocol ExpiringActivityPerforming: AnyObject {
    /// Runs `block` asynchronously while an assertion keeps the process from being suspended.
    /// - Parameters:
    ///   - reason: A description of the work, for debugging; the system may print it.
    ///   - block: Called with `false` (assertion held until it returns) or `true` (none), again with `true` on expiry.
    ///
    /// > Important: The assertion lasts only while the first invocation runs: it must block its thread until the work
    /// > is done, and return promptly once it is called with `true` again.
    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void)
}
