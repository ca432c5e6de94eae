/// One statement of a body, as the rules read it: what it evaluates, binds, assigns, where control can leave, and
/// the branches, loops and deferred blocks it holds.
public struct Step: Sendable {
    /// What the statement does.
    public indirect enum Kind: Sendable {
        /// An expression evaluated for its effect: a call, an `await`, a closure passed somewhere.
        case evaluate(CodeExpression)
        /// `let`/`var` (Swift) or a local declaration (Objective-C): a new name, which shadows any outer one.
        /// `isMutable` is `var` in Swift; in Objective-C it is `__block`, a local blocks share rather than copy.
        case declare(name: String, isMutable: Bool, value: CodeExpression?)
        /// An assignment to a variable, property or instance variable.
        case assign(target: CodeExpression, value: CodeExpression)
        /// Control leaves here: `return`, `throw`, `break`, `continue`, or a call that never returns.
        case exit(Exit, value: CodeExpression?)
        /// `if`/`else`, `switch`, `guard`: the conditions, then each arm's steps. For `guard` the one arm is the
        /// `else`, which must leave. `isExhaustive` is false when control can pass with no arm run (`if` without
        /// `else`).
        case branch(Branch)
        /// A loop: its condition (or sequence) and body.
        case loop(condition: [CodeExpression], body: [Step])
        /// `defer { … }`: runs when the enclosing scope is left, on every path.
        case deferred([Step])
        /// `do { … } catch { … }` (Swift) or `@try … @catch` (Objective-C).
        case guarded(body: [Step], handlers: [[Step]])
        /// A nested declaration of a function or type inside the body: read as its own body.
        case nested(CodeBody)
    }

    /// How control leaves.
    public enum Exit: String, Sendable, Equatable {
        case `return`, `throw`, `break`, `continue`, neverReturns
    }

    /// A branch statement.
    public struct Branch: Sendable {
        /// Which statement it is.
        public enum Form: String, Sendable, Equatable {
            case `if`, `guard`, `switch`
        }

        /// Which statement it is.
        public var form: Form
        /// The conditions in order; `if let x = y` and `guard let self` appear as `.binding`.
        public var conditions: [Condition]
        /// The arms' steps: `if` (then, else…), `guard` (else), `switch` (each case).
        public var arms: [[Step]]
        /// Whether some arm always runs.
        public var isExhaustive: Bool

        /// Creates a branch.
        public init(form: Form, conditions: [Condition], arms: [[Step]], isExhaustive: Bool) {
            self.form = form
            self.conditions = conditions
            self.arms = arms
            self.isExhaustive = isExhaustive
        }
    }

    /// A condition of a branch.
    public enum Condition: Sendable {
        /// A Boolean expression.
        case expression(CodeExpression)
        /// `let name = value` (`if let`, `guard let`), `let self` included; `value` `nil` for the shorthand
        /// `if let name`.
        case binding(name: String, value: CodeExpression?)
    }

    /// What the statement does.
    public var kind: Kind
    /// Where it is.
    public var location: CodeRange

    /// Creates a step.
    public init(_ kind: Kind, at location: CodeRange) {
        self.kind = kind
        self.location = location
    }
}
