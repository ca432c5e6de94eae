import AuditCodeModel
import SwiftSyntax

/// Walks a file's declarations, keeping the enclosing type's name, and reads each body.
final class DeclarationCollector: SyntaxVisitor {
    let reader: BodyReader
    private(set) var bodies: [CodeBody] = []
    private(set) var types: [TypeDeclaration] = []
    private(set) var properties: [PropertyDeclaration] = []
    /// The enclosing types, innermost last, with whether each is `@MainActor` or an actor.
    private var typeStack: [(name: String, isolation: Isolation)] = []

    init(reader: BodyReader) {
        self.reader = reader
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: - Types

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.class, node.name.text, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.struct, node.name.text, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.enum, node.name.text, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.actor, node.name.text, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(.protocol, node.name.text, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.extendedType.trimmedDescription
        return enter(.extension, name, node.inheritanceClause, node.attributes, Syntax(node))
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

    private func enter(
        _ kind: TypeDeclaration.Kind, _ name: String, _ inheritance: InheritanceClauseSyntax?,
        _ attributes: AttributeListSyntax, _ node: Syntax
    ) -> SyntaxVisitorContinueKind {
        let inherits = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        let isMainActor = attributes.mentions("MainActor")
        types.append(
            TypeDeclaration(
                kind: kind, name: name, inherits: inherits, isMainActor: isMainActor,
                location: reader.range(of: node)))
        let inherited = typeStack.last?.isolation ?? .unstated
        let isolation: Isolation =
            isMainActor ? .mainActor : kind == .actor ? .actor(name) : kind == .extension ? .unstated : inherited
        typeStack.append((name, isolation))
        return .visitChildren
    }

    // MARK: - Bodies

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let parameters = node.signature.parameterClause.parameters.map(BodyReader.parameter)
        add(
            kind: typeStack.isEmpty ? .function : .method, name: node.name.text,
            parameters: parameters, isolation: isolation(node.attributes, node.modifiers),
            isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil, body: node.body, node: Syntax(node))
        if let body = node.body { walkNestedTypes(in: Syntax(body)) }
        return .skipChildren  // nested functions are read as steps of the body
    }

    /// A type declared inside a function's body (`func setUp() { class Helper { … } }`): its methods are bodies of
    /// the file like any other type's.
    private func walkNestedTypes(in body: Syntax) {
        let finder = NestedTypeFinder(viewMode: .sourceAccurate)
        finder.walk(body)
        for type in finder.found { walk(type) }
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        let parameters = node.signature.parameterClause.parameters.map(BodyReader.parameter)
        add(
            kind: .initializer, name: "init", parameters: parameters,
            isolation: isolation(node.attributes, node.modifiers),
            isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil, body: node.body, node: Syntax(node))
        return .skipChildren
    }

    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        add(
            kind: .deinitializer, name: "deinit", parameters: [], isolation: typeStack.last?.isolation ?? .unstated,
            isAsync: false, body: node.body, node: Syntax(node))
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isStatic = node.modifiers.contains { ["static", "class"].contains($0.name.text) }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            let type = binding.typeAnnotation?.type
            properties.append(
                PropertyDeclaration(
                    name: name, typeName: typeStack.last?.name, isStatic: isStatic,
                    isClosure: type.map(BodyReader.isFunctionType) ?? false,
                    valueType: type.flatMap(BodyReader.namedType)
                        ?? binding.initializer.flatMap { BodyReader.initializedType($0.value) },
                    location: reader.range(of: Syntax(binding))))
            if let accessors = binding.accessorBlock {
                readAccessors(accessors, of: name, isolation: isolation(node.attributes, node.modifiers))
            }
        }
        return .skipChildren
    }

    private func readAccessors(_ block: AccessorBlockSyntax, of name: String, isolation: Isolation) {
        switch block.accessors {
        case .getter(let items):
            bodies.append(
                CodeBody(
                    kind: .accessor, name: name, typeName: typeStack.last?.name, isolation: isolation,
                    steps: reader.steps(items), location: reader.range(of: Syntax(block))))
        case .accessors(let list):
            for accessor in list {
                guard let body = accessor.body else { continue }
                bodies.append(
                    CodeBody(
                        kind: .accessor, name: name, labels: [accessor.accessorSpecifier.text],
                        typeName: typeStack.last?.name, isolation: isolation, steps: reader.steps(body.statements),
                        location: reader.range(of: Syntax(accessor))))
            }
        }
    }

    private func add(
        kind: CodeBody.Kind, name: String, parameters: [CodeBody.Parameter], isolation: Isolation, isAsync: Bool,
        body: CodeBlockSyntax?, node: Syntax
    ) {
        guard let body else { return }  // a protocol requirement
        bodies.append(
            CodeBody(
                kind: kind, name: name, labels: parameters.map(\.label), typeName: typeStack.last?.name,
                parameters: parameters, isolation: isolation, isAsync: isAsync, steps: reader.steps(body.statements),
                location: reader.range(of: node)))
    }

    /// A declaration's own isolation, else its type's.
    private func isolation(_ attributes: AttributeListSyntax, _ modifiers: DeclModifierListSyntax) -> Isolation {
        if attributes.mentions("MainActor") { return .mainActor }
        if modifiers.contains(where: { $0.name.text == "nonisolated" }) { return .nonisolated }
        return typeStack.last?.isolation ?? .unstated
    }
}

extension AttributeListSyntax {
    /// Whether an attribute named `name` is written (`@MainActor`).
    func mentions(_ name: String) -> Bool {
        contains { element in
            guard let attribute = element.as(AttributeSyntax.self) else { return false }
            // The identifier's own text (most attributes), without copying the node to trim it.
            if let identifier = attribute.attributeName.as(IdentifierTypeSyntax.self),
                identifier.genericArgumentClause == nil
            {
                return identifier.name.text == name
            }
            return attribute.attributeName.trimmedDescription == name
        }
    }
}

/// Finds the outermost type declarations inside a body (those inside them are the collector's to walk).
private final class NestedTypeFinder: SyntaxVisitor {
    private(set) var found: [Syntax] = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { keep(node) }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { keep(node) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { keep(node) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { keep(node) }

    private func keep(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        found.append(Syntax(node))
        return .skipChildren
    }
}
