/// Carries a thread-safe value whose SDK declaration may lack `Sendable`.
///
/// Used for `ProcessInfo` (documented thread-safe by Apple), stand-ins that promise the same, and
/// `DispatchSpecificKey` (an immutable identity token). A value that crosses because of how the code
/// waits for it, not because it is thread-safe, goes in a ``HandedOver`` instead.
package struct UncheckedSendableBox<Value>: @unchecked Sendable {  // only values documented thread-safe
    /// The wrapped object.
    package let value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }
}
