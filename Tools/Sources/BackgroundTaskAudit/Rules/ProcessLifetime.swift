/// Objects that live as long as the process: the app delegate, and singletons (a type that keeps its one
/// instance in a static `shared`-like property). A `[weak self]` or `__weak` reference to one is never nil
/// while the app runs, so a handler that ends the task through it always does.
extension SourceSyntax {
    /// Whether `name` is `self` or a weak or strong alias of it (`weakSelf`, `strongSelf`, `sself`).
    static func namesSelf(_ name: String) -> Bool {
        name.lowercased().hasSuffix("self")
    }

    /// Whether the code at `index` is a method of an object that lives as long as the process.
    func isInProcessLifetimeOwner(_ index: Int) -> Bool {
        guard let name = isSwift ? enclosingSwiftType(of: index) : enclosingImplementation(of: index) else {
            return false
        }
        return name.hasSuffix("AppDelegate") || keepsSharedInstance(of: name)
    }

    /// The name of the innermost Swift type or extension around `index`, `@main` types and app delegates named by
    /// conformance reported as `AppDelegate`.
    private func enclosingSwiftType(of index: Int) -> String? {
        var scope = self.scope(containing: index)
        while let current = scope {
            if scopes[current].kind == .type {
                var cursor = scopes[current].open - 1
                var conformsToDelegate = false
                while cursor >= 0, cursor >= scopes[current].open - 64 {
                    let text = tokens[cursor].text
                    if text == "UIApplicationDelegate" || text == "NSApplicationDelegate" { conformsToDelegate = true }
                    if ["class", "struct", "actor", "extension", "enum"].contains(text), cursor + 1 < tokens.count {
                        let attributes = tokens[max(0, cursor - 6)..<cursor].map(\.text)
                        let isMain = attributes.contains("main") || attributes.contains("UIApplicationMain")
                        return conformsToDelegate || isMain ? "AppDelegate" : tokens[cursor + 1].text
                    }
                    cursor -= 1
                }
                return nil
            }
            scope = scopes[current].parent
        }
        return nil
    }

    /// The class of the Objective-C `@implementation` that `index` is in (the lexer makes `@implementation` and
    /// `@end` one directive token each).
    private func enclosingImplementation(of index: Int) -> String? {
        var cursor = min(index, tokens.count - 1)
        while cursor >= 0 {
            if tokens[cursor].text == "@implementation", cursor + 1 < tokens.count { return tokens[cursor + 1].text }
            if tokens[cursor].text == "@end" { return nil }
            cursor -= 1
        }
        return nil
    }

    /// Whether the file keeps one instance of `type` in a static property: Swift
    /// `static let shared = Type(…)` (or `sharedInstance`, `default`, `instance`, typed or not), or an
    /// Objective-C class method `+ (instancetype)sharedX` / `+ (Type *)sharedX` made once with `dispatch_once`.
    private func keepsSharedInstance(of type: String) -> Bool {
        let sharedNames: Set<String> = ["shared", "sharedInstance", "default", "instance", "current"]
        if isSwift {
            for index in tokens.indices.dropLast(6) where tokens[index].text == "static" {
                let next = tokens[index + 1].text
                guard next == "let" || next == "var", sharedNames.contains(tokens[index + 2].text) else { continue }
                let rest = tokens[(index + 3)...].prefix(6).map(\.text)
                if let equals = rest.firstIndex(of: "="), equals + 1 < rest.count,
                    rest[equals + 1] == type || rest[equals + 1] == "Self"
                {
                    return true
                }
            }
            return false
        }
        let mentionsOnce = tokens.contains { $0.text == "dispatch_once" }
        guard mentionsOnce else { return false }
        for index in tokens.indices.dropLast(6) where tokens[index].text == "+" && tokens[index + 1].text == "(" {
            let returnType = tokens[index + 2].text
            guard returnType == "instancetype" || returnType == type else { continue }
            let selector = tokens[(index + 3)...].prefix(4).first {
                $0.kind == .identifier && $0.text.hasPrefix("shared")
            }
            if selector != nil { return true }
        }
        return false
    }
}

extension FileAnalysis {
    /// Whether the file's `deinit` (Swift) or `dealloc` (Objective-C) ends a task, directly or through a
    /// helper of the same object: then a `[weak self]` that has become nil means the task was ended already.
    var endsTaskWhenOwnerGoes: Bool {
        let helpers = functionsThatEnd
        return syntax.scopes.indices.contains { scope in
            let region = syntax.scopes[scope]
            guard region.kind == .function, region.name == "deinit" || region.name == "dealloc" else { return false }
            return endCalls.contains { region.contains($0.nameToken) }
                || !helperEndCalls(in: scope, helpers: helpers).isEmpty
        }
    }
}
