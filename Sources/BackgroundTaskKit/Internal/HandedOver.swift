/// A value handed to another task or thread that uses it while the giver waits, or reads an immutable copy: never two
/// writers, never a reader beside a writer (``UncheckedSendableBox`` is for values documented thread-safe). Used for an
/// async face's body, record and outcome (the child runs the body while the caller awaits it; the outcome comes back
/// once it finished), and an expiry's plan (immutable copies read by the main actor and the handler's thread).
@frozen @usableFromInline
package struct HandedOver<Value>: @unchecked Sendable {  // see the type's comment: one user at a time
    @usableFromInline package let value: Value

    @inlinable package init(_ value: Value) {
        self.value = value
    }
}
