/// A `{ … }` region of a file and what introduced it.
struct Scope: Sendable {
    /// What kind of code a brace opens.
    enum Kind: Sendable, Equatable {
        /// A function, method, initializer, `deinit` or subscript body.
        case function
        /// A Swift closure or an Objective-C block literal: code that may run later, or never.
        case closure
        /// The body of `if`, `guard … else`, `for`, `while`, `switch`, `do`, `catch`, `defer`, `repeat`,
        /// `@synchronized`, `@autoreleasepool`, …; `keyword` says which.
        case control
        /// A property accessor or observer (`get`, `set`, `didSet`, a computed property).
        case accessor
        /// A type, extension or namespace body, or an Objective-C instance-variable block.
        case type
        /// Any other braces (a C compound statement or initializer list).
        case compound
    }

    var kind: Kind
    /// The `{` token.
    var open: Int
    /// The matching `}` token, or the token count when the file ends first.
    var close: Int
    /// The enclosing scope, or `nil` at file level.
    var parent: Int?
    /// The function's or property's name, or the control keyword (`if`, `defer`, `guard`, …).
    var name: String?

    /// Whether the token at `index` lies inside the braces.
    func contains(_ index: Int) -> Bool {
        index > open && index < close
    }

    /// Whether the scope is code of its own: a function, accessor or closure.
    var isExecutable: Bool {
        kind == .function || kind == .closure || kind == .accessor
    }
}
