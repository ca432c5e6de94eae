/// Carries a thread-safe value whose SDK declaration may lack `Sendable`: `ProcessInfo` (documented thread-safe by
/// Apple), stand-ins that promise the same, and `DispatchSpecificKey` (an immutable identity token). A value that
/// crosses because of how the code waits for it goes in a ``HandedOver`` instead.
package struct UncheckedSendableBox<Value>: @unchecked Sendable {  // only values documented thread-safe
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
