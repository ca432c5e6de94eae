import Foundation

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
        var name = name.drop { $0 == " " }
        // `label: Type` (a tuple element): a label is a plain identifier before the first colon and space.
        if let colon = name.range(of: ": "),
            name[..<colon.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        {
            name = name[colon.upperBound...]
        }
        var depth = 0
        var previous: Character = " "
        var elements: [Substring] = []  // a tuple's, split at its own commas
        var start = name.isEmpty ? name.endIndex : name.index(after: name.startIndex)
        for index in name.indices {
            switch name[index] {
            case "(", "<", "[": depth += 1
            case ")", "]": depth -= 1
            case ">" where previous == "-": if depth == 0 { return true }  // `->` outside brackets: a function type
            case ">": depth -= 1
            case "," where depth == 1:
                elements.append(name[start..<index])
                start = name.index(after: index)
            default: break
            }
            previous = name[index]
        }
        if name.hasPrefix("Swift.Optional<"), name.hasSuffix(">") {
            return holdsClosureDirectly(named: name.dropFirst("Swift.Optional<".count).dropLast())
        }
        guard name.hasPrefix("("), name.hasSuffix(")"), start < name.endIndex else { return false }
        return (elements + [name[start..<name.index(before: name.endIndex)]]).contains {
            holdsClosureDirectly(named: $0)
        }
    }
}
