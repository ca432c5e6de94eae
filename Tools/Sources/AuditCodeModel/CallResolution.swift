/// The project declarations a call reaches, and whether the index shows that it reaches them and no other code.
public struct CallResolution: Sendable {
    /// The declarations the call can reach: the receiver's type's method (or a superclass's) when the index knows the
    /// receiver's type, else every project body of that name and labels (the call's own file first).
    public var declarations: [CodeBody]
    /// Whether the receiver's type is known: the call is on `self`, `super`, a type's name or singleton
    /// (`Uploader.shared`), a property whose declared type has the method, or a local made by one of those; a free
    /// function declared once. A call matched by its name alone may reach another type's method of that name, or a
    /// library's, so it is not shown.
    public var isShown: Bool

    /// Creates a resolution.
    public init(declarations: [CodeBody], isShown: Bool) {
        self.declarations = declarations
        self.isShown = isShown
    }
}

extension ProjectIndex {
    /// Whether `name` is a singleton accessor: `shared`, `sharedSyncManager`, `default`, `defaultCenter`, `current`,
    /// `instance`.
    private static func isSingleton(_ name: String) -> Bool {
        name.hasPrefix("shared") || name.hasPrefix("default") || ["standard", "current", "instance"].contains(name)
    }

    /// The project declarations `call`, made in code of `typeName`, reaches (see ``CallResolution``). `locals` are the
    /// steps of the body the call is in, where a local's declaration (`let sync = Sync.shared`,
    /// `Sync *sync = [Sync sharedSync]`) gives the receiver's type.
    public func resolve(_ call: CodeCall, in typeName: String?, locals: [Step] = []) -> CallResolution {
        let labels = call.arguments.map { $0.label ?? "_" }
        if let receiverType = receiverType(of: call, in: typeName, locals: locals) {
            let found = Self.matching(methods(named: call.name, in: receiverType), labels)
            if !found.isEmpty {
                // A type that conforms to the protocol (over its extension's default) or a subclass may declare its
                // own: then which one runs is not shown.
                let replacing = Self.matching(bodies(named: call.name), labels).filter { body in
                    guard let owner = body.typeName, owner != receiverType else { return false }
                    return inherits(owner, from: receiverType)
                }
                return CallResolution(
                    declarations: Self.nearest(found, to: call) + replacing, isShown: replacing.isEmpty)
            }
        }
        let named = Self.matching(bodies(named: call.name), labels)
        if call.receiver == nil {
            let free = named.filter { $0.typeName == nil }
            if free.count == 1 { return CallResolution(declarations: free, isShown: true) }
        }
        return CallResolution(declarations: Self.nearest(named, to: call), isShown: false)
    }

    /// The declarations in the call's own file when there are any: two apps of one repository may both declare an
    /// `AppDelegate` with the same methods.
    private static func nearest(_ bodies: [CodeBody], to call: CodeCall) -> [CodeBody] {
        let sameFile = bodies.filter { $0.location.path == call.location.path }
        return sameFile.isEmpty ? bodies : sameFile
    }

    /// The type the receiver of `call` is known to have, when the index shows it.
    private func receiverType(of call: CodeCall, in typeName: String?, locals: [Step]) -> String? {
        guard let receiver = call.receiver else { return typeName }
        if let made = type(made: receiver) { return made }
        guard let path = receiver.path, !path.isEmpty else { return nil }
        switch path.count {
        case 1 where path[0] == "self": return typeName
        case 1 where path[0] == "super": return typeName.flatMap(superclass(of:))
        default: break
        }
        // A local whose value says its type.
        if path.count == 1, let value = StepWalk.localValue(of: path[0], in: locals) {
            return type(made: value)
        }
        // A property of the caller's type (or a superclass's) whose declared type the index has.
        let propertyPath = path[0] == "self" ? Array(path.dropFirst()) : path
        guard propertyPath.count == 1, let typeName else { return nil }
        return propertyType(propertyPath[0], of: typeName)
    }

    /// The type an expression makes, when it says: a type's name (a static call), its initializer (`Sync()`,
    /// `[[Sync alloc] init]`), its singleton (`Sync.shared`, `[Sync sharedSync]`) or a static property of it whose
    /// declared type the index has (`Cache.callManager`).
    private func type(made expression: CodeExpression) -> String? {
        switch expression {
        case .reference(let path) where path.count == 1 && isType(path[0]):
            return path[0]
        case .reference(let path) where path.count == 2 && isType(path[0]):
            return Self.isSingleton(path[1]) ? path[0] : propertyType(path[1], of: path[0])
        case .call(let inner):
            if inner.receiver == nil, isType(inner.name) { return inner.name }  // `Sync(…)`
            guard let base = inner.receiver else { return nil }
            if ["init", "new", "alloc"].contains(inner.name) || inner.name.hasPrefix("initWith")
                || (inner.arguments.isEmpty && Self.isSingleton(inner.name))
            {
                return type(made: base)
            }
            return nil
        case .await(let inner):
            return type(made: inner)
        default:
            return nil
        }
    }

    /// The declared type of the property `name` of `typeName` or a superclass, when the index has that type.
    private func propertyType(_ name: String, of typeName: String) -> String? {
        var name = name
        if name.hasPrefix("_"), name.count > 1 { name.removeFirst() }
        var visited: Set<String> = []
        var current: String? = typeName
        while let type = current, visited.insert(type).inserted {
            let declared = properties(named: name, in: type) + properties(named: "_" + name, in: type)
            if let valueType = declared.lazy.compactMap(\.valueType).first, isType(valueType) { return valueType }
            current = superclass(of: type)
        }
        return nil
    }

    /// Whether `typeName`, a superclass of it, or an extension of either names `ancestor` among what it inherits or
    /// conforms to.
    private func inherits(_ typeName: String, from ancestor: String) -> Bool {
        var visited: Set<String> = []
        var current: String? = typeName
        while let type = current, visited.insert(type).inserted {
            if types(named: type).contains(where: { $0.inherits.contains(ancestor) }) { return true }
            current = superclass(of: type)
        }
        return false
    }

    private func isType(_ name: String) -> Bool {
        name.first?.isUppercase == true && !types(named: name).isEmpty
    }

    /// The declared bodies (not closures) whose labels accept a call's `labels`: the same labels, a trailing
    /// closure's missing label included; else, when none, those the call can reach by leaving out defaulted
    /// arguments.
    private static func matching(_ bodies: [CodeBody], _ labels: [String]) -> [CodeBody] {
        let declared = bodies.filter { $0.kind != .closure }
        let exact = declared.filter { body in
            body.labels.count == labels.count
                && zip(body.labels, labels).enumerated().allSatisfy { position, pair in
                    pair.0 == pair.1 || (position == labels.count - 1 && pair.1 == "_")
                }
        }
        if !exact.isEmpty { return exact }
        return declared.filter { body in
            body.labels.count > labels.count && isSubsequence(labels, of: body.labels)
        }
    }

    private static func isSubsequence(_ short: [String], of long: [String]) -> Bool {
        var remaining = long[...]
        for label in short {
            guard let found = remaining.firstIndex(where: { $0 == label || label == "_" }) else { return false }
            remaining = remaining[(found + 1)...]
        }
        return true
    }
}
