/// Which type's code a token is in: the Swift type or extension around it (by the type's name, so an
/// extension counts as its type), or the Objective-C `@implementation` it is between.
struct TypeRanges {
    private let syntax: SourceSyntax
    /// Objective-C: each `@implementation`'s token range and class name, in order.
    private let implementations: [(range: Range<Int>, name: String)]

    init(_ syntax: SourceSyntax) {
        self.syntax = syntax
        self.implementations = syntax.isSwift ? [] : Self.implementations(in: syntax)
    }

    /// Objective-C: each `@implementation`'s token range (to its `@end`) and class name, in order.
    static func implementations(in syntax: SourceSyntax) -> [(range: Range<Int>, name: String)] {
        var implementations: [(range: Range<Int>, name: String)] = []
        var start: (Int, String)?
        for index in syntax.tokens.indices {
            let text = syntax.tokens[index].text
            if text == "@implementation", let name = syntax.token(index + 1), name.kind == .identifier {
                start = (index, name.text)
            } else if text == "@end", let (open, name) = start {
                implementations.append((open..<index, name))
                start = nil
            }
        }
        if let (open, name) = start { implementations.append((open..<syntax.tokens.count, name)) }
        return implementations
    }

    /// The type whose code holds `index`, or `nil` at file level.
    func name(at index: Int) -> String? {
        if syntax.isSwift {
            for scope in syntax.scopeChain(from: syntax.scope(containing: index))
            where syntax.scopes[scope].kind == .type {
                return typeName(of: scope)
            }
            return nil
        }
        return Self.implementation(at: index, in: implementations)
    }

    /// The class of the `@implementation` in `implementations` (in order) that holds `index`: a binary search.
    static func implementation(at index: Int, in implementations: [(range: Range<Int>, name: String)]) -> String? {
        var low = 0
        var high = implementations.count
        while low < high {
            let middle = (low + high) / 2
            if implementations[middle].range.upperBound <= index { low = middle + 1 } else { high = middle }
        }
        guard low < implementations.count, implementations[low].range.contains(index) else { return nil }
        return implementations[low].name
    }

    /// `class Uploader`, `extension Uploader: Delegate`, `struct Box<T>`: the name after the keyword.
    private func typeName(of scope: Int) -> String? {
        var cursor = syntax.scopes[scope].open - 1
        var steps = 0
        var name: String?
        while cursor >= 0, steps < 64 {
            let token = syntax.tokens[cursor]
            if token.is("}") || token.is(";") { break }
            if ["class", "struct", "enum", "extension", "actor", "protocol"].contains(token.text),
                let next = syntax.token(cursor + 1), next.kind == .identifier
            {
                name = next.text
                break
            }
            cursor -= 1
            steps += 1
        }
        return name
    }
}
