/// Every declaration in the audited tree, by name and type, so that a rule follows a call into project code in
/// another file, a superclass or an extension.
public struct ProjectIndex: Sendable {
    /// The files read.
    public let files: [CodeFile]
    private let bodiesByName: [String: [CodeBody]]
    private let typesByName: [String: [TypeDeclaration]]
    private let propertiesByName: [String: [PropertyDeclaration]]
    private let callersByName: [String: [CodeBody]]
    private let bodiesByType: [String: [CodeBody]]
    /// The project's own begin and end helpers (``TaskShims``).
    public let shims: TaskShims
    /// The names of the declared bodies that end a task, or call, through any chain of project calls, a body that
    /// does (by name: every declaration of a name counts).
    private let endReachingNames: Set<String>

    /// Indexes `files`.
    public init(files: [CodeFile]) {
        self.files = files
        var bodies: [String: [CodeBody]] = [:]
        var types: [String: [TypeDeclaration]] = [:]
        var properties: [String: [PropertyDeclaration]] = [:]
        var callers: [String: [CodeBody]] = [:]
        var byType: [String: [CodeBody]] = [:]
        for file in files {
            for body in file.bodies {
                if let name = body.name { bodies[name, default: []].append(body) }
                if let type = body.typeName { byType[type, default: []].append(body) }
                for name in Set(body.calls.map(\.name)) { callers[name, default: []].append(body) }
            }
            for type in file.types { types[type.name, default: []].append(type) }
            for property in file.properties { properties[property.name, default: []].append(property) }
        }
        bodiesByName = bodies
        typesByName = types
        propertiesByName = properties
        callersByName = callers
        bodiesByType = byType
        shims = TaskShims(bodies: files.lazy.flatMap(\.bodies))
        endReachingNames = Self.namesReachingAnEnd(files: files, callers: callers)
    }

    /// The bodies declared in `typeName` and its extensions (closures included).
    public func bodies(inType typeName: String) -> [CodeBody] {
        bodiesByType[typeName] ?? []
    }

    /// The declared bodies that call something named `name` (a method, a function), closures included.
    public func callers(of name: String) -> [CodeBody] {
        callersByName[name] ?? []
    }

    /// The declarations of `name` whose argument labels are `labels` (any labels when `nil`).
    public func bodies(named name: String, labels: [String]? = nil) -> [CodeBody] {
        (bodiesByName[name] ?? []).filter { labels == nil || $0.labels == labels }
    }

    /// The method `name` as a call on `typeName` resolves it: declared in the type or an extension of it, else in its
    /// superclasses, nearest first; empty when the index cannot tell.
    public func methods(named name: String, labels: [String]? = nil, in typeName: String) -> [CodeBody] {
        var visited: Set<String> = []
        var current: String? = typeName
        while let type = current, visited.insert(type).inserted {
            let found = bodies(named: name, labels: labels).filter { $0.typeName == type }
            if !found.isEmpty { return found }
            current = superclass(of: type)
        }
        return []
    }

    /// The declarations of a type and its extensions.
    public func types(named name: String) -> [TypeDeclaration] {
        typesByName[name] ?? []
    }

    /// The superclass of `typeName`: the first inherited name of its class declaration that is itself a class in the
    /// index, or `nil`.
    public func superclass(of typeName: String) -> String? {
        let declared = types(named: typeName).filter { $0.kind == .class }
        guard let first = declared.lazy.compactMap(\.inherits.first).first else { return nil }
        return types(named: first).contains { $0.kind == .class } ? first : nil
    }

    /// `typeName` and its superclasses, nearest first.
    public func typeAndSuperclasses(of typeName: String) -> [String] {
        var types: [String] = []
        var current: String? = typeName
        while let type = current, !types.contains(type) {
            types.append(type)
            current = superclass(of: type)
        }
        return types
    }

    /// Whether `typeName` (or an extension of it, or a superclass) is `@MainActor`.
    public func isMainActor(_ typeName: String) -> Bool {
        var visited: Set<String> = []
        var current: String? = typeName
        while let type = current, visited.insert(type).inserted {
            if types(named: type).contains(where: \.isMainActor) { return true }
            current = superclass(of: type)
        }
        return false
    }

    /// The properties named `name`, in `typeName` when given.
    public func properties(named name: String, in typeName: String? = nil) -> [PropertyDeclaration] {
        (propertiesByName[name] ?? []).filter { typeName == nil || $0.typeName == typeName }
    }

    /// Whether a call of `name` can end a task: some project declaration of that name ends one or calls, through
    /// project code, one that does. A call of any other name cannot (the system's end takes the identifier, and
    /// code outside the project is not given it by a call that does not pass it).
    public func mayReachAnEnd(_ name: String) -> Bool {
        endReachingNames.contains(name)
    }

    private static func namesReachingAnEnd(files: [CodeFile], callers: [String: [CodeBody]]) -> Set<String> {
        var found: Set<String> = []
        var pending: [String] = []
        for file in files {
            for body in file.bodies where body.makesSystemCall && body.kind != .closure {
                guard let name = body.name else { continue }
                let ends = body.calls.contains { call in
                    if case .end = SystemCall(call) { return true }
                    return false
                }
                if ends, found.insert(name).inserted { pending.append(name) }
            }
        }
        while let name = pending.popLast() {
            for caller in callers[name] ?? [] where caller.kind != .closure {
                guard let callerName = caller.name, found.insert(callerName).inserted else { continue }
                pending.append(callerName)
            }
        }
        return found
    }
}
