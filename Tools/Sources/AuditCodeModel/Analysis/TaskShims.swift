/// The project's own begin and end helpers, found once per index. A *begin shim* is a method or function that begins
/// a task and returns what holds it: the identifier, or an object that keeps it in a property
/// (`let keepalive = Keepalive.hold(named: "flush")`). An *end shim* is a method without parameters that ends the task
/// a property of its own object keeps (`keepalive.finish()`). The caller of a begin shim owns the task as if it had
/// begun it: it must end it, through the end shim, on every path.
public struct TaskShims: Sendable {
    /// The names a call of a begin shim can have: the Swift base name and, for a Swift method, its Objective-C
    /// selector's first part (`hold(named:onExpiry:)` is also `holdWithNamed`).
    public let beginNames: Set<String>
    /// The names of the end shims.
    public let endNames: Set<String>

    /// No shims: only the system's calls begin and end tasks.
    public static let none = TaskShims(bodies: [CodeBody]())

    /// Finds the shims among `bodies`.
    public init(bodies: some Sequence<CodeBody>) {
        var begins: Set<String> = []
        var ends: Set<String> = []
        for body in bodies where body.makesSystemCall && body.kind != .closure {
            guard let name = body.name else { continue }
            if Self.returnsWhatHoldsABegin(body) {
                begins.insert(name)
                begins.formUnion(Self.objectiveCNames(of: body))
            }
            if body.parameters.isEmpty, Self.endsAPropertyOfItsObject(body) { ends.insert(name) }
        }
        beginNames = begins
        endNames = ends
    }

    /// Whether `call` calls a begin shim (and is not itself a system begin).
    public func isBegin(_ call: CodeCall) -> Bool {
        beginNames.contains(call.name) && SystemCall(call) == nil
    }

    /// Whether `call` begins a task: the system's begin, or a begin shim.
    public func begins(_ call: CodeCall) -> Bool {
        if case .begin = SystemCall(call) { return true }
        return isBegin(call)
    }

    /// Whether `call` ends the task that `name`, a begin shim's result, holds: an end shim called on it.
    public func ends(_ call: CodeCall, handle name: String) -> Bool {
        endNames.contains(call.name) && call.receiver?.path?.last == name
    }

    /// Whether `call` ends the task kept in `name`: the system's end of that identifier (or of its Objective-C
    /// instance variable), or an end shim called on it.
    public func ends(_ call: CodeCall, kept name: String) -> Bool {
        if case .end(let argument) = SystemCall(call) {
            return EarlyExitRule.sameIdentifier(argument?.path?.last, name)
        }
        return ends(call, handle: name)
    }

    /// The Objective-C names a Swift method is called by: `hold(named:onExpiry:)` is `holdWithNamed:onExpiry:`,
    /// `start(withName:)` is `startWithName:`, `run(_:)` is `run:`. Its first part is the call's name.
    public static func objectiveCNames(of body: CodeBody) -> [String] {
        guard let name = body.name, body.location.path.hasSuffix(".swift"), let first = body.labels.first,
            first != "_"
        else { return [] }
        let capitalized = first.prefix(1).uppercased() + first.dropFirst()
        let startsWithWith = first.hasPrefix("with") && first.dropFirst(4).first?.isUppercase == true
        return [startsWithWith ? name + capitalized : name + "With" + capitalized]
    }

    /// Whether `body` begins a task and returns the identifier, or the object it stored the identifier in.
    private static func returnsWhatHoldsABegin(_ body: CodeBody) -> Bool {
        var holders: Set<String> = []
        var returnsHolder = false
        func visit(_ steps: [Step]) {
            for step in steps {
                switch step.kind {
                // `helper.identifier = begin(…)`, or `= identifier` after `let identifier = begin(…)`.
                case .assign(let target, let value)
                where beginsIn(value) || value.path.map({ holders.contains($0[0]) }) == true:
                    if let path = target.path {
                        if path.count == 1 { holders.insert(path[0]) }
                        if path.count == 2, path[0] != "self" { holders.insert(path[0]) }
                    }
                case .declare(let name, _, let value?) where beginsIn(value):
                    holders.insert(name)
                case .exit(.return, let value?):
                    if beginsIn(value) || value.path.map({ holders.contains($0[0]) }) == true { returnsHolder = true }
                default:
                    break
                }
                for block in StepWalk.nestedBlocks(of: step) { visit(block) }
            }
        }
        visit(body.steps)
        return returnsHolder
    }

    private static func beginsIn(_ value: CodeExpression) -> Bool {
        value.calls.contains { call in
            if case .begin = SystemCall(call) { return true }
            return false
        }
    }

    /// Whether `body` ends an identifier kept in a property of its own object (`endBackgroundTask(identifier)`,
    /// `endBackgroundTask(self.identifier)`), not a local or a parameter.
    private static func endsAPropertyOfItsObject(_ body: CodeBody) -> Bool {
        guard body.typeName != nil else { return false }
        return body.calls.contains { call in
            guard case .end(let argument) = SystemCall(call), let path = argument?.path else { return false }
            if path.count == 2 { return path[0] == "self" }
            return path.count == 1 && !StepWalk.declares(path[0], in: body.steps)
        }
    }
}
