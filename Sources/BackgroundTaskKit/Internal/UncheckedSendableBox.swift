/// Carries a thread-safe value whose SDK declaration may lack `Sendable`.
///
/// Used for `ProcessInfo` (documented thread-safe by Apple), stand-ins that promise the same, and
/// `DispatchSpecificKey` (an immutable identity token).
@usableFromInline
package struct UncheckedSendableBox<Value>: @unchecked Sendable {  // only values documented thread-safe
    /// The wrapped object.
    @usableFromInline package let value: Value

    /// Wraps `value`.
    @inlinable package init(_ value: Value) {
        self.value = value
    }
}
