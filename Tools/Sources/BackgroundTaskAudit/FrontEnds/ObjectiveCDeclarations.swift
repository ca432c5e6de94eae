import AuditCodeModel

/// The file-level pass of the Objective-C front end: `@interface`, `@implementation`, `@property`, instance
/// variables, methods and C functions.
struct ObjectiveCDeclarations {
    let syntax: SourceSyntax
    let path: String
    private(set) var bodies: [CodeBody] = []
    private(set) var types: [TypeDeclaration] = []
    private(set) var properties: [PropertyDeclaration] = []
    private var currentType: String?

    init(syntax: SourceSyntax, path: String) {
        self.syntax = syntax
        self.path = path
    }

    private var tokens: [Token] { syntax.tokens }

    mutating func run() {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .directive {
                switch token.text {
                case "@interface", "@implementation", "@protocol":
                    index = typeHeader(at: index)
                    continue
                case "@end":
                    currentType = nil
                case "@property":
                    index = property(at: index)
                    continue
                default:
                    break
                }
            } else if token.is("-") || token.is("+"), currentType != nil, syntax.token(index + 1)?.is("(") == true {
                index = method(at: index)
                continue
            } else if token.is("{"), let close = partner(index) {
                index = functionBody(opening: index, closing: close) ?? close + 1
                continue
            }
            index += 1
        }
    }

    private func partner(_ index: Int) -> Int? {
        let other = Int(syntax.partner[index])
        return other > index ? other : nil
    }

    private func range(_ first: Int, _ last: Int) -> CodeRange {
        let start = tokens[first]
        let end = tokens[min(last, tokens.count - 1)]
        return CodeRange(path: path, line: Int(start.line), column: Int(start.column), endLine: Int(end.line))
    }

    /// `@interface Name : Super <P>`, `@interface Name (Category)`, `@implementation Name`, with an instance-variable
    /// block if one follows.
    private mutating func typeHeader(at index: Int) -> Int {
        let directive = tokens[index].text
        guard let nameToken = syntax.token(index + 1), nameToken.kind == .identifier else { return index + 1 }
        var next = index + 2
        var inherits: [String] = []
        var isCategory = false
        if syntax.token(next)?.is(":") == true, let superclass = syntax.token(next + 1), superclass.kind == .identifier
        {
            inherits.append(superclass.text)
            next += 2
        } else if syntax.token(next)?.is("(") == true, let close = partner(next) {
            isCategory = true
            next = close + 1
        }
        if syntax.token(next)?.is("<") == true {
            while let token = syntax.token(next), !token.is(">") {
                if token.kind == .identifier { inherits.append(token.text) }
                next += 1
            }
            next += 1
        }
        let kind: TypeDeclaration.Kind =
            directive == "@protocol" ? .protocol : isCategory ? .extension : .class
        types.append(
            TypeDeclaration(
                kind: kind, name: nameToken.text, inherits: inherits, isMainActor: false, location: range(index, next)))
        currentType = nameToken.text
        if syntax.token(next)?.is("{") == true, let close = partner(next) {
            instanceVariables(from: next + 1, to: close)
            return close + 1
        }
        return next
    }

    /// `Type name;` entries of an instance-variable block.
    private mutating func instanceVariables(from start: Int, to end: Int) {
        var first = start
        for index in start..<end where tokens[index].is(";") {
            if let name = lastName(from: first, to: index) {
                properties.append(
                    PropertyDeclaration(
                        name: name, typeName: currentType, isStatic: false,
                        isClosure: (first..<index).contains { tokens[$0].is("^") },
                        valueType: objectType(from: first, to: index), location: range(first, index)))
            }
            first = index + 1
        }
    }

    /// The declared name in `Type *name` or `void (^name)(…)`: the identifier after `^`, else the last identifier.
    private func lastName(from start: Int, to end: Int) -> String? {
        if let caret = (start..<end).first(where: { tokens[$0].is("^") }),
            let name = syntax.token(caret + 1), name.kind == .identifier
        {
            return name.text
        }
        return (start..<end).reversed().lazy.map { tokens[$0] }.first { $0.kind == .identifier }?.text
    }

    /// The class of an object pointer declared in `start..<end` (`Tasks` for `__weak Tasks *name`); `nil` for `id`,
    /// a block, or a C type; a generic's argument (`NSArray<Tasks *>`) is not it.
    private func objectType(from start: Int, to end: Int) -> String? {
        guard !(start..<end).contains(where: { tokens[$0].is("^") }) else { return nil }
        return (start..<end).lazy.filter { position in
            let token = self.tokens[position]
            return token.kind == .identifier && token.text.first?.isUppercase == true
                && self.syntax.token(position + 1)?.is("*") == true
                && !(position > start && (self.tokens[position - 1].is("<") || self.tokens[position - 1].is(",")))
        }.first.map { tokens[$0].text }
    }

    /// `@property (attributes) Type name;`.
    private mutating func property(at index: Int) -> Int {
        guard
            let end = (index..<tokens.count).first(where: {
                tokens[$0].is(";") || tokens[$0].kind == .directive && $0 > index
            })
        else { return tokens.count }
        var start = index + 1
        if syntax.token(start)?.is("(") == true, let close = partner(start) { start = close + 1 }
        if let name = lastName(from: start, to: end) {
            let attributes = (index + 1..<start).map { tokens[$0].text }
            properties.append(
                PropertyDeclaration(
                    name: name, typeName: currentType, isStatic: attributes.contains("class"),
                    isClosure: (start..<end).contains { tokens[$0].is("^") },
                    valueType: objectType(from: start, to: end), location: range(index, end)))
        }
        return end + 1
    }

    /// `- (Type)part:(Type)name part2:(Type)name2 { … }`; a declaration ending in `;` is skipped.
    private mutating func method(at index: Int) -> Int {
        var next = index + 1
        var returnType: String?
        if let close = partner(next) {  // the return type
            returnType = objectType(from: next + 1, to: close)
            next = close + 1
        }
        var parts: [String] = []
        var parameters: [CodeBody.Parameter] = []
        var isKeyword = false
        while let token = syntax.token(next), !token.is("{"), !token.is(";") {
            if token.kind == .identifier, syntax.token(next + 1)?.is(":") == true {
                isKeyword = true
                parts.append(token.text)
                next += 2
                var isBlock = false
                if syntax.token(next)?.is("(") == true, let close = partner(next) {
                    // A block type written out (`void (^)(void)`) or by a name that says so (`dispatch_block_t`,
                    // `XYZCompletionBlock`, `XYZHandler`).
                    isBlock = (next..<close).contains { position in
                        let text = tokens[position].text
                        return text == "^" || text == "dispatch_block_t" || text.hasSuffix("Block")
                            || text.hasSuffix("Handler") || text.hasSuffix("Callback")
                    }
                    next = close + 1
                }
                if let name = syntax.token(next), name.kind == .identifier {
                    parameters.append(CodeBody.Parameter(label: token.text, name: name.text, isClosure: isBlock))
                    next += 1
                }
            } else {
                if parts.isEmpty, token.kind == .identifier { parts.append(token.text) }
                next += 1
            }
        }
        guard let open = syntax.token(next), open.is("{"), let close = partner(next), let name = parts.first else {
            return next + 1
        }
        let kind: CodeBody.Kind =
            name.hasPrefix("init") ? .initializer : name == "dealloc" ? .deinitializer : .method
        // A getter written as a method (`- (DSSync *)sync { … }`): what it returns is a property of that type.
        if !isKeyword, kind == .method, let returnType {
            properties.append(
                PropertyDeclaration(
                    name: name, typeName: currentType, isStatic: tokens[index].is("+"), isClosure: false,
                    valueType: returnType, location: range(index, close)))
        }
        var statements = ObjectiveCStatements(syntax: syntax, path: path)
        bodies.append(
            CodeBody(
                kind: kind, name: name, labels: isKeyword ? parts : [], typeName: currentType, parameters: parameters,
                steps: statements.steps(from: next + 1, to: close), location: range(index, close)))
        return close + 1
    }

    /// A C function at file level: `static void name(…) { … }`; any other braces are skipped.
    private mutating func functionBody(opening open: Int, closing close: Int) -> Int? {
        guard open >= 3, tokens[open - 1].is(")"), let paren = Optional(Int(syntax.partner[open - 1])), paren > 0,
            paren < open, tokens[paren - 1].kind == .identifier
        else { return nil }
        let name = tokens[paren - 1].text
        guard !["if", "while", "for", "switch", "@synchronized"].contains(name) else { return nil }
        var statements = ObjectiveCStatements(syntax: syntax, path: path)
        // A React Native module's exported method (`RCT_EXPORT_METHOD(start:…) { … }`): a method of the module, named
        // by its macro, which says which queue runs it (``ThreadResolver``).
        let isExport = currentType != nil && ThreadResolver.reactNativeExports.contains(name)
        bodies.append(
            CodeBody(
                kind: isExport ? .method : .function, name: name, typeName: isExport ? currentType : nil,
                steps: statements.steps(from: open + 1, to: close), location: range(paren - 1, close)))
        return close + 1
    }
}
