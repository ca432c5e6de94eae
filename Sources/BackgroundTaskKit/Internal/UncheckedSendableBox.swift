/// Carries a reference to a thread-safe Apple object whose SDK declaration may lack `Sendable`.
///
/// Used only for `ProcessInfo` (documented thread-safe by Apple since macOS 10.7 and iOS) and for
/// stand-ins that promise the same.
// @unchecked Sendable: only wraps objects whose methods are documented safe to call from any thread.
package struct UncheckedSendableBox<Value>: @unchecked Sendable {
    /// The wrapped object.
    package let value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }
}
