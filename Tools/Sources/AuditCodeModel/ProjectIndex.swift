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
}
