/// A value handed to another task or thread that uses it while the giver waits for it, or reads an
/// immutable copy of it: never two writers, never a reader beside a writer.
///
/// ``UncheckedSendableBox`` is for values documented thread-safe (`ProcessInfo`, a dispatch key).
/// This box is for the other reason a non-`Sendable` value may cross: the structure of the code.
/// - An async face's body, its task record and its outcome: the child task runs the body while the
///   caller awaits that child, and the outcome comes back only once the child has finished.
/// - An expiry's plan: an immutable copy read on the main actor for the cleanups, while the
///   handler's thread reads its own copy for the ends; the records in it are touched only under
///   their engine's lock.
/// - The observer handle's way back to its ledger: used only under the ledger owner's lock.
@usableFromInline
package struct HandedOver<Value>: @unchecked Sendable {  // see the type's comment: one user at a time
    /// The value handed over.
    @usableFromInline package let value: Value

    /// Hands `value` over.
    @inlinable package init(_ value: Value) {
        self.value = value
    }
}
