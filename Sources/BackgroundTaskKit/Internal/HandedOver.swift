/// A value handed to another task or thread that uses it while the giver waits, or reads an immutable copy: never two
/// writers, never a reader beside a writer. ``UncheckedSendableBox`` is for values documented thread-safe
/// (`ProcessInfo`, a dispatch key); this box, for values the code's structure keeps safe:
/// - An async face's body, task record and outcome: the child task runs the body while the caller awaits it, and the
///   outcome comes back only once the child finished.
/// - An expiry's plan: an immutable copy read on the main actor for the cleanups while the handler's thread reads its
///   own for the ends; its records are touched only under their engine's lock.
/// - The observer handle's way back to its ledger: used only under the ledger owner's lock.
@usableFromInline
package struct HandedOver<Value>: @unchecked Sendable {  // see the type's comment: one user at a time
    @usableFromInline package let value: Value

    @inlinable package init(_ value: Value) {
        self.value = value
    }
}
