/// A body of code the audit reads, made by a language front end: a function, method, initializer, deinitializer,
/// accessor, Objective-C method or block, or a Swift closure. Both front ends (Swift through a real parser,
/// Objective-C through the audit's own) produce these, so that each rule is written once, over them.
public final class CodeBody: Sendable {
    /// What kind of body it is.
    public enum Kind: String, Sendable, Equatable {
        case function, method, initializer, deinitializer, accessor, closure
    }

    /// What kind of body it is.
    public let kind: Kind
    /// The declared name (`upload`, `application(_:didFinishLaunchingWithOptions:)`'s base name `application`,
    /// an Objective-C selector's full text); a closure's is `nil`.
    public let name: String?
    /// The argument labels (`_` for none), Swift; the selector's parts, Objective-C.
    public let labels: [String]
    /// The type (class, struct, enum, actor, extension or Objective-C `@implementation`) it is declared in.
    public let typeName: String?
    /// Its parameters' names, in order.
    public let parameters: [Parameter]
    /// Where the code says it runs, as far as the declaration says (an isolation annotation, an actor, a queue).
    public let isolation: Isolation
    /// Whether it is `async`.
    public let isAsync: Bool
    /// For a closure: its capture list (`[weak self]`, `[task]`), in order.
    public let captures: [Capture]
    /// The statements of the body, in order.
    public let steps: [Step]
    /// Where it is: the file and the lines from its first to its last.
    public let location: CodeRange
    /// Every call in its steps and in the closures and nested bodies inside them, in order (``StepWalk/calls(in:)``),
    /// collected once.
    public let calls: [CodeCall]
    /// Whether any of ``calls`` is a system call (``SystemCall``): a body without one gives no rule a place to start.
    public let makesSystemCall: Bool

    /// Creates a body.
    public init(
        kind: Kind, name: String?, labels: [String] = [], typeName: String? = nil, parameters: [Parameter] = [],
        isolation: Isolation = .unstated, isAsync: Bool = false, captures: [Capture] = [], steps: [Step],
        location: CodeRange
    ) {
        self.kind = kind
        self.name = name
        self.labels = labels
        self.typeName = typeName
        self.parameters = parameters
        self.isolation = isolation
        self.isAsync = isAsync
        self.captures = captures
        self.steps = steps
        self.location = location
        self.calls = StepWalk.calls(in: steps)
        self.makesSystemCall = calls.contains { SystemCall($0) != nil }
    }

    /// A parameter of a body.
    public struct Parameter: Sendable {
        /// The argument label (`_` for none).
        public var label: String
        /// The name the body uses.
        public var name: String
        /// Whether its type is a function (a completion, a handler).
        public var isClosure: Bool
        /// Its default value (Swift), when it has one: a call may leave the argument out.
        public var defaultValue: CodeExpression?

        /// Creates a parameter.
        public init(label: String, name: String, isClosure: Bool, defaultValue: CodeExpression? = nil) {
            self.label = label
            self.name = name
            self.isClosure = isClosure
            self.defaultValue = defaultValue
        }
    }

    /// One entry of a closure's capture list.
    public struct Capture: Sendable {
        /// How it is held.
        public enum Strength: String, Sendable, Equatable {
            case strong, weak, unowned
        }

        /// How it is held.
        public var strength: Strength
        /// The name inside the closure.
        public var name: String
        /// What it is bound to (`[task = self.task]`), when not the same name outside.
        public var value: CodeExpression?

        /// Creates a capture.
        public init(strength: Strength, name: String, value: CodeExpression? = nil) {
            self.strength = strength
            self.name = name
            self.value = value
        }
    }
}
