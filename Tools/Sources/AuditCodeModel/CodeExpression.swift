/// An expression as far as the rules care: a reference, a call, a closure, a literal, or something else whose parts
/// are kept so that the calls and closures inside it are still seen.
public indirect enum CodeExpression: Sendable {
    /// A name or a member path: `task`, `self.task`, `UIApplication.shared`, `_task`, `self->_task`.
    case reference([String])
    /// A call or an Objective-C message.
    case call(CodeCall)
    /// A closure or block literal.
    case closure(CodeBody)
    /// A literal.
    case literal(Literal)
    /// `await x` (Swift): a point where the body can be suspended and resumed on another thread.
    case await(CodeExpression)
    /// Any other expression, with its parts in order.
    case other([CodeExpression])

    /// A literal's kind.
    public enum Literal: Sendable, Equatable {
        /// `nil`, `NULL`, `Nil`.
        case `nil`
        /// A string; `isEmpty` for `""` and `@""`.
        case string(isEmpty: Bool)
        /// A number, a Boolean, or another literal.
        case other(String)
    }

    /// The reference path, if this is a plain reference.
    public var path: [String]? {
        if case .reference(let path) = self { path } else { nil }
    }

    /// Every call in the expression, outermost first, closures' bodies not included.
    public var calls: [CodeCall] {
        switch self {
        case .call(let call):
            [call] + (call.receiver?.calls ?? []) + call.arguments.flatMap(\.value.calls)
        case .await(let inner): inner.calls
        case .other(let parts): parts.flatMap(\.calls)
        case .reference, .closure, .literal: []
        }
    }
}
