/// Carries a thread-safe value whose SDK declaration may lack `Sendable`.
///
/// Used for `ProcessInfo` (documented thread-safe by Apple), stand-ins that promise the same, and
/// `DispatchSpecificKey` (an immutable identity token).
// @unchecked Sendable: only wraps values that are documented safe to use from any thread.
package struct UncheckedSendableBox<Value>: @unchecked Sendable {
    /// The wrapped object.
    package let value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }
}
