import AuditCodeModel
import SwiftSyntax

/// Turns statements and expressions into the code model's steps and expressions.
struct BodyReader {
    /// Where the file's lines start.
    let lines: LineTable
    /// The file's text, for quick searches before a walk of the tree.
    let bytes: [UInt8]
    let path: String
    /// Whether the statements being read are inside a `do` with `catch` clauses: a `try` there goes to the catch,
    /// not out of the body.
    var catchesThrows = false

    /// Where `node` is, from its first token to its last.
    func range(of node: Syntax) -> CodeRange {
        let start = lines.location(of: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        let end = lines.location(of: node.endPositionBeforeTrailingTrivia.utf8Offset)
        return CodeRange(path: path, line: start.line, column: start.column, endLine: end.line)
    }

    // MARK: - Statements

    func steps(_ items: CodeBlockItemListSyntax) -> [Step] {
        items.flatMap { item -> [Step] in
            let read: [Step] =
                switch item.item {
                case .decl(let declaration): self.declaration(declaration)
                case .stmt(let statement): self.statement(statement)
                case .expr(let expression): self.expressionStatement(expression)
                }
            // `try` outside a `do`/`catch`: the statement may leave the body by throwing, before it completes.
            guard !catchesThrows, mentionsTry(Syntax(item.item)), Self.mayThrowOut(Syntax(item.item)) else {
                return read
            }
            let at = range(of: Syntax(item))
            let mayThrow = Step.Branch(
                form: .if, conditions: [], arms: [[Step(.exit(.throw, value: nil), at: at)]], isExhaustive: false)
            return [Step(.branch(mayThrow), at: at)] + read
        }
    }

    /// Whether the text of `node` holds the letters `try` anywhere: a byte search that rules out most statements
    /// before ``mayThrowOut(_:)`` walks their tree.
    func mentionsTry(_ node: Syntax) -> Bool {
        let start = max(0, node.positionAfterSkippingLeadingTrivia.utf8Offset)
        let end = min(bytes.count, node.endPositionBeforeTrailingTrivia.utf8Offset)
        guard end - start >= 3 else { return false }
        var index = start
        while index + 2 < end {
            if bytes[index] == UInt8(ascii: "t"), bytes[index + 1] == UInt8(ascii: "r"),
                bytes[index + 2] == UInt8(ascii: "y")
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether `node` holds a `try` (not `try?` or `try!`) of its own: not one inside a closure, a nested body or a
    /// nested block, which are read on their own.
    static func mayThrowOut(_ node: Syntax) -> Bool {
        if let tried = node.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil { return true }
        if node.is(ClosureExprSyntax.self) || node.is(CodeBlockSyntax.self)
            || node.is(DeclSyntax.self)
                && !node.is(VariableDeclSyntax.self)
        {
            return false
        }
        if node.is(DoStmtSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { mayThrowOut($0) }
    }

    private func declaration(_ node: DeclSyntax) -> [Step] {
        let at = range(of: Syntax(node))
        if let conditional = node.as(IfConfigDeclSyntax.self) {
            // `#if canImport(UIKit)` … `#elseif os(watchOS)` … `#endif`: a build takes one clause, so each clause is an
            // arm, and one always runs (a build that compiles none has no task either). One clause is read inline.
            let arms = conditional.clauses.map { clause -> [Step] in
                guard case .statements(let items) = clause.elements else { return [] }
                return steps(items)
            }
            if arms.count == 1 { return arms[0] }
            return [Step(.branch(Step.Branch(form: .if, conditions: [], arms: arms, isExhaustive: true)), at: at)]
        }
        if let variable = node.as(VariableDeclSyntax.self) {
            let isMutable = variable.bindingSpecifier.tokenKind == .keyword(.var)
            return variable.bindings.map { binding in
                let name =
                    binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                    ?? binding.pattern.trimmedDescription
                return Step(
                    .declare(name: name, isMutable: isMutable, value: binding.initializer.map { expression($0.value) }),
                    at: at)
            }
        }
        if let function = node.as(FunctionDeclSyntax.self), let body = function.body {
            var outside = self
            outside.catchesThrows = false
            let parameters = function.signature.parameterClause.parameters.map(Self.parameter)
            let nested = CodeBody(
                kind: .function, name: function.name.text, labels: parameters.map(\.label), parameters: parameters,
                isAsync: function.signature.effectSpecifiers?.asyncSpecifier != nil,
                steps: outside.steps(body.statements),
                location: at)
            return [Step(.nested(nested), at: at)]
        }
        return []  // a nested type: its own declarations are not part of this body's flow
    }

    private func statement(_ node: StmtSyntax) -> [Step] {
        let at = range(of: Syntax(node))
        if let wrapped = node.as(ExpressionStmtSyntax.self) {
            return expressionStatement(wrapped.expression)
        }
        if let returned = node.as(ReturnStmtSyntax.self) {
            return [Step(.exit(.return, value: returned.expression.map(expression)), at: at)]
        }
        if let thrown = node.as(ThrowStmtSyntax.self) {
            return [Step(.exit(.throw, value: expression(thrown.expression)), at: at)]
        }
        if node.is(BreakStmtSyntax.self) { return [Step(.exit(.break, value: nil), at: at)] }
        if node.is(ContinueStmtSyntax.self) { return [Step(.exit(.continue, value: nil), at: at)] }
        if let guardStatement = node.as(GuardStmtSyntax.self) {
            // `guard #available(iOS 16, *) else { … }`: on a current system the else does not run.
            if let passes = Self.availability(guardStatement.conditions), passes { return [] }
            let branch = Step.Branch(
                form: .guard, conditions: conditions(guardStatement.conditions),
                arms: [steps(guardStatement.body.statements)], isExhaustive: false)
            return [Step(.branch(branch), at: at)]
        }
        if let deferStatement = node.as(DeferStmtSyntax.self) {
            return [Step(.deferred(steps(deferStatement.body.statements)), at: at)]
        }
        if let doStatement = node.as(DoStmtSyntax.self) {
            let handlers = doStatement.catchClauses.map { steps($0.body.statements) }
            var inside = self
            inside.catchesThrows = catchesThrows || !doStatement.catchClauses.isEmpty
            return [Step(.guarded(body: inside.steps(doStatement.body.statements), handlers: handlers), at: at)]
        }
        if let forStatement = node.as(ForStmtSyntax.self) {
            return [
                Step(
                    .loop(condition: [expression(forStatement.sequence)], body: steps(forStatement.body.statements)),
                    at: at)
            ]
        }
        if let whileStatement = node.as(WhileStmtSyntax.self) {
            let condition = conditions(whileStatement.conditions).compactMap { condition -> CodeExpression? in
                if case .expression(let value) = condition { value } else { nil }
            }
            return [Step(.loop(condition: condition, body: steps(whileStatement.body.statements)), at: at)]
        }
        if let repeatStatement = node.as(RepeatStmtSyntax.self) {
            return [
                Step(
                    .loop(
                        condition: [expression(repeatStatement.condition)],
                        body: steps(repeatStatement.body.statements)), at: at)
            ]
        }
        if let labeled = node.as(LabeledStmtSyntax.self) {
            return statement(labeled.statement)
        }
        return []
    }

    /// An expression written as a statement: an assignment, an `if` or `switch`, or an evaluation.
    private func expressionStatement(_ node: ExprSyntax) -> [Step] {
        let at = range(of: Syntax(node))
        if let ifExpression = node.as(IfExprSyntax.self) { return [Step(.branch(branch(ifExpression)), at: at)] }
        if let switchExpression = node.as(SwitchExprSyntax.self) {
            let arms = switchExpression.cases.compactMap { element -> [Step]? in
                if case .switchCase(let switchCase) = element { steps(switchCase.statements) } else { nil }
            }
            let hasDefault = switchExpression.cases.contains { element in
                if case .switchCase(let switchCase) = element, case .default = switchCase.label { true } else { false }
            }
            let branch = Step.Branch(
                form: .switch, conditions: [.expression(expression(switchExpression.subject))], arms: arms,
                isExhaustive: hasDefault || !arms.isEmpty)
            return [Step(.branch(branch), at: at)]
        }
        if let (target, value) = assignment(node) {
            return [Step(.assign(target: expression(target), value: expression(value)), at: at)]
        }
        if let call = node.as(FunctionCallExprSyntax.self), Self.neverReturns(call) {
            return [Step(.exit(.neverReturns, value: nil), at: at)]
        }
        return [Step(.evaluate(expression(node)), at: at)]
    }

    private func branch(_ node: IfExprSyntax) -> Step.Branch {
        // `if #available(iOS 13, *) { … } else { … }`: the audit reads code as it runs on a current system, where
        // `#available` passes and `#unavailable` fails (the other arm is for systems where, for one,
        // `BGTaskScheduler` never calls a launch handler).
        if let passes = Self.availability(node.conditions) {
            let taken: [Step]
            switch (passes, node.elseBody) {
            case (true, _): taken = steps(node.body.statements)
            case (false, .codeBlock(let block)): taken = steps(block.statements)
            case (false, .ifExpr(let elseIf)): taken = [Step(.branch(branch(elseIf)), at: range(of: Syntax(elseIf)))]
            case (false, nil): taken = []
            }
            return Step.Branch(form: .if, conditions: [], arms: [taken], isExhaustive: true)
        }
        var arms = [steps(node.body.statements)]
        var isExhaustive = false
        switch node.elseBody {
        case .ifExpr(let elseIf):
            arms.append([Step(.branch(branch(elseIf)), at: range(of: Syntax(elseIf)))])
            isExhaustive = true
        case .codeBlock(let block):
            arms.append(steps(block.statements))
            isExhaustive = true
        case nil:
            break
        }
        return Step.Branch(form: .if, conditions: conditions(node.conditions), arms: arms, isExhaustive: isExhaustive)
    }

    /// For a condition list that is one availability check: whether it passes on a current system (`#available`
    /// does, `#unavailable` does not); `nil` for any other condition.
    private static func availability(_ list: ConditionElementListSyntax) -> Bool? {
        guard list.count == 1, case .availability(let check) = list.first?.condition else { return nil }
        return check.availabilityKeyword.tokenKind == .poundAvailable
    }

    private func conditions(_ list: ConditionElementListSyntax) -> [Step.Condition] {
        list.map { element in
            switch element.condition {
            case .expression(let value):
                return .expression(expression(value))
            case .optionalBinding(let binding):
                let name = binding.pattern.trimmedDescription
                return .binding(name: name, value: binding.initializer.map { expression($0.value) })
            case .matchingPattern(let pattern):
                return .expression(expression(pattern.initializer.value))
            default:
                return .expression(.other([]))
            }
        }
    }

    /// `target = value`, as the parser leaves it before operators are folded.
    private func assignment(_ node: ExprSyntax) -> (ExprSyntax, ExprSyntax)? {
        if let sequence = node.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
            return (elements[0], elements[2])
        }
        if let infix = node.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
            return (infix.leftOperand, infix.rightOperand)
        }
        return nil
    }

    /// `fatalError(…)`, `preconditionFailure(…)`, `exit(…)` and `abort()`.
    private static func neverReturns(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        return ["fatalError", "preconditionFailure", "exit", "abort"].contains(name)
    }

    // MARK: - Parameters

    /// A declared parameter; a default value is kept as `nil` or as a literal of its text (a default closure is
    /// not read: what it does is not followed).
    static func parameter(_ node: FunctionParameterSyntax) -> CodeBody.Parameter {
        let defaultValue = node.defaultValue.map { clause -> CodeExpression in
            clause.value.is(NilLiteralExprSyntax.self)
                ? .literal(.nil) : .literal(.other(clause.value.trimmedDescription))
        }
        return CodeBody.Parameter(
            label: node.firstName.text, name: (node.secondName ?? node.firstName).text,
            isClosure: isFunctionType(node.type), defaultValue: defaultValue)
    }

    /// The name of a named type, through optionals and attributes (`Tasks` for `Tasks?`, `Tasks!`,
    /// `Module.Tasks`); `nil` for a function, tuple, collection or generic type.
    static func namedType(_ type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return identifier.name.text
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil { return member.name.text }
        if let attributed = type.as(AttributedTypeSyntax.self) { return namedType(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) { return namedType(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return namedType(unwrapped.wrappedType)
        }
        return nil
    }

    /// The type an initial value makes (`Tasks` for `Tasks()`, `Tasks.shared`, `Module.Tasks(queue: q)`): a call or
    /// member of a capitalized name; `nil` otherwise.
    static func initializedType(_ value: ExprSyntax) -> String? {
        var expression = value
        if let call = expression.as(FunctionCallExprSyntax.self) { expression = call.calledExpression }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
            ["shared", "default", "standard", "current", "main", "instance", "sharedInstance"].contains(
                member.declName.baseName.text)
        {
            expression = base
        }
        let name =
            expression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        guard let name, let first = name.first, first.isUppercase else { return nil }
        return name
    }

    /// Whether a type is a function type, optional or attributed (`@escaping () -> Void`, `(() -> Void)?`).
    static func isFunctionType(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isFunctionType(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) { return isFunctionType(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return isFunctionType(unwrapped.wrappedType)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return isFunctionType(only.type)
        }
        return false
    }
}
