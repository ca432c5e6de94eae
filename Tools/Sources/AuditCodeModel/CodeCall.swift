/// A call (Swift) or message (Objective-C).
public struct CodeCall: Sendable {
    /// An argument, labelled or not.
    public struct Argument: Sendable {
        /// The label (Swift), or the selector part before it (Objective-C); `nil` when unlabelled.
        public var label: String?
        /// The argument.
        public var value: CodeExpression

        /// Creates an argument.
        public init(label: String?, value: CodeExpression) {
            self.label = label
            self.value = value
        }
    }

    /// What the call is made on: `UIApplication.shared`, `self`, `app`; `nil` for a free function or an implicit
    /// `self`.
    public var receiver: CodeExpression?
    /// The base name: `beginBackgroundTask`, `endBackgroundTask`; for Objective-C the first selector part
    /// (`beginBackgroundTaskWithName`).
    public var name: String
    /// The arguments in order, trailing closures last with their labels (`nil` for the first).
    public var arguments: [Argument]
    /// Where the name is.
    public var location: CodeRange

    /// Creates a call.
    public init(receiver: CodeExpression?, name: String, arguments: [Argument], location: CodeRange) {
        self.receiver = receiver
        self.name = name
        self.arguments = arguments
        self.location = location
    }

    /// The argument with `label`, if any.
    public func argument(labelled label: String) -> CodeExpression? {
        arguments.first { $0.label == label }?.value
    }

    /// The closures passed to the call, in order.
    public var closures: [CodeBody] {
        arguments.compactMap { if case .closure(let body) = $0.value { body } else { nil } }
    }

    /// The value this call passes for `declaration`'s parameter at `position`: the argument with its label (a trailing
    /// closure for a closure parameter), the parameter's default when the call leaves it out, or by position when
    /// every argument is passed (Objective-C); `nil` when the call does not fit the declaration.
    public func value(passedFor position: Int, of declaration: CodeBody) -> CodeExpression? {
        let parameters = declaration.parameters
        guard parameters.indices.contains(position) else { return nil }
        if arguments.count == parameters.count { return arguments[position].value }
        var next = 0
        for (index, parameter) in parameters.enumerated() {
            let argument = arguments.indices.contains(next) ? arguments[next] : nil
            let isTrailingClosure =
                argument?.label == nil && next == arguments.count - 1 && parameter.isClosure
            if let argument, (argument.label ?? "_") == parameter.label || isTrailingClosure {
                if index == position { return argument.value }
                next += 1
            } else if let defaultValue = parameter.defaultValue {
                if index == position { return defaultValue }
            } else {
                return nil
            }
        }
        return nil
    }
}
