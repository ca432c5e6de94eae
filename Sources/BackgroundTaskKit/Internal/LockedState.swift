/// Which states ``Locked`` must refuse: a closure (or optional closure, or tuple holding one) without a struct or class
/// around it. Stored as a generic value, a function is kept in its most general form; each `inout` access of
/// ``Locked/withLock(_:)`` wraps it in two more thunks and one allocation, until a call overflows the stack (issue 20,
/// after some thousands of leak reports). A closure in a struct or class field, or in a collection, is not wrapped.
package enum LockedState {
    /// Whether `type` is, or directly holds (optional, tuple), a function type, judged by its name (fine for a debug
    /// check): `@Sendable (Swift.Int) -> ()`, `Swift.Optional<() -> ()>`, `(task: Swift.Int, run: () -> ())`.
    package static func holdsClosureDirectly(_ type: Any.Type) -> Bool {
        holdsClosureDirectly(named: Substring(String(reflecting: type)))
    }

    /// The same, from a type's name as `String(reflecting:)` writes it.
    package static func holdsClosureDirectly(named name: Substring) -> Bool {
        let name = name.trimmingSpaces
        if arrowOutsideBrackets(in: name) { return true }
        let optional = "Swift.Optional<"
        if name.hasPrefix(optional), name.hasSuffix(">") {
            return holdsClosureDirectly(named: name.dropFirst(optional.count).dropLast())
        }
        if name.hasPrefix("("), name.hasSuffix(")") {
            return tupleElements(of: name.dropFirst().dropLast()).contains { holdsClosureDirectly(named: $0) }
        }
        return false
    }

    /// Whether `name` has a `->` that no bracket encloses: the name of a function type.
    private static func arrowOutsideBrackets(in name: Substring) -> Bool {
        var depth = 0
        var previous: Character = " "
        for character in name {
            switch character {
            case "(", "<", "[": depth += 1
            case ")", "]": depth -= 1
            case ">" where previous == "-":
                if depth == 0 { return true }
            case ">": depth -= 1
            default: break
            }
            previous = character
        }
        return false
    }

    /// The element types of a tuple's inside (`task: Swift.Int, Swift.Bool`), labels removed.
    private static func tupleElements(of inside: Substring) -> [Substring] {
        var elements: [Substring] = []
        var depth = 0
        var start = inside.startIndex
        var previous: Character = " "
        for index in inside.indices {
            let character = inside[index]
            switch character {
            case "(", "<", "[": depth += 1
            case ")", "]": depth -= 1
            case ">" where previous != "-": depth -= 1
            case "," where depth == 0:
                elements.append(inside[start..<index])
                start = inside.index(after: index)
            default: break
            }
            previous = character
        }
        elements.append(inside[start...])
        return elements.map { element in
            // `label: Type`: a label is a plain identifier before the first colon and space.
            guard
                let colon = element.indices.first(where: { index in
                    element[index] == ":" && element.index(after: index) < element.endIndex
                        && element[element.index(after: index)] == " "
                }),
                element[..<colon].trimmingSpaces.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { return element }
            return element[element.index(colon, offsetBy: 2)...]
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else {
            return ""
        }
        return self[first...last]
    }
}
