import AuditCodeModel
import SwiftSyntax

extension BodyReader {
    /// The model of an expression.
    func expression(_ node: ExprSyntax) -> CodeExpression {
        if let reference = node.as(DeclReferenceExprSyntax.self) { return .reference([reference.baseName.text]) }
        if node.is(NilLiteralExprSyntax.self) { return .literal(.nil) }
        // A literal's own token text, not `trimmedDescription`, which copies the node to trim it.
        if let string = node.as(StringLiteralExprSyntax.self) {
            return .literal(
                .string(
                    isEmpty: string.segments.allSatisfy { segment in
                        segment.as(StringSegmentSyntax.self)?.content.text.isEmpty ?? false
                    }))
        }
        if let integer = node.as(IntegerLiteralExprSyntax.self) { return .literal(.other(integer.literal.text)) }
        if let float = node.as(FloatLiteralExprSyntax.self) { return .literal(.other(float.literal.text)) }
        if let boolean = node.as(BooleanLiteralExprSyntax.self) { return .literal(.other(boolean.literal.text)) }
        if let member = node.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else { return .reference([name]) }  // `.invalid`
            if case .reference(let path) = expression(base) { return .reference(path + [name]) }
            return .other([expression(base)])
        }
        if let call = node.as(FunctionCallExprSyntax.self) { return self.call(call) }
        if let closure = node.as(ClosureExprSyntax.self) { return .closure(self.closure(closure)) }
        if let awaited = node.as(AwaitExprSyntax.self) { return .await(expression(awaited.expression)) }
        if let tried = node.as(TryExprSyntax.self) { return expression(tried.expression) }
        if let forced = node.as(ForceUnwrapExprSyntax.self) { return expression(forced.expression) }
        if let chained = node.as(OptionalChainingExprSyntax.self) { return expression(chained.expression) }
        if let tuple = node.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return expression(only.expression)
        }
        if let prefix = node.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            // `!expired`: the negation is kept, as a literal `!` before its operand.
            return .other([.literal(.other("!")), expression(prefix.expression)])
        }
        if let macro = node.as(MacroExpansionExprSyntax.self) {
            // `#selector(appBecameBackground)`: its arguments, so that the method it names is seen.
            return .other(macro.arguments.map { expression($0.expression) })
        }
        if let subscripted = node.as(SubscriptCallExprSyntax.self) {
            // `tasks[key]`: the collection, then the keys (a slot of a collection that keeps tasks).
            return .other(
                [expression(subscripted.calledExpression)] + subscripted.arguments.map { expression($0.expression) })
        }
        if node.is(SuperExprSyntax.self) { return .reference(["super"]) }
        if node.is(DiscardAssignmentExprSyntax.self) { return .reference(["_"]) }
        // Anything else: keep its direct sub-expressions, so that calls and closures inside are still seen.
        return .other(
            node.children(viewMode: .sourceAccurate).flatMap { child -> [CodeExpression] in
                if let expression = child.as(ExprSyntax.self) { return [self.expression(expression)] }
                return child.children(viewMode: .sourceAccurate).compactMap { $0.as(ExprSyntax.self) }.map(expression)
            })
    }

    /// A call: its receiver and base name, its arguments and trailing closures.
    private func call(_ node: FunctionCallExprSyntax) -> CodeExpression {
        var receiver: CodeExpression?
        let name: String
        var called = node.calledExpression
        while let unwrapped = called.as(OptionalChainingExprSyntax.self)?.expression
            ?? called.as(ForceUnwrapExprSyntax.self)?.expression
        {
            called = unwrapped  // `self.onExpire?()`, `handler!()`
        }
        if let member = called.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            receiver = member.base.map(expression)
        } else if let reference = called.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else {
            // A call of a call's result or of a closure: not a named call, but its parts still count.
            name = ""
            receiver = expression(called)
        }
        var arguments = node.arguments.map { argument in
            CodeCall.Argument(label: argument.label?.text, value: expression(argument.expression))
        }
        if let trailing = node.trailingClosure {
            arguments.append(CodeCall.Argument(label: nil, value: .closure(closure(trailing))))
        }
        for additional in node.additionalTrailingClosures {
            arguments.append(
                CodeCall.Argument(label: additional.label.text, value: .closure(closure(additional.closure))))
        }
        let nameToken = called.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(called)
        return .call(CodeCall(receiver: receiver, name: name, arguments: arguments, location: range(of: nameToken)))
    }

    /// A closure literal as a body of its own, with its capture list and parameters.
    func closure(_ node: ClosureExprSyntax) -> CodeBody {
        let captures =
            node.signature?.capture?.items.map { item -> CodeBody.Capture in
                let specifier = item.specifier?.specifier.text
                let strength: CodeBody.Capture.Strength =
                    specifier == "weak" ? .weak : specifier == "unowned" ? .unowned : .strong
                return CodeBody.Capture(
                    strength: strength, name: item.name.text, value: item.initializer.map { expression($0.value) })
            } ?? []
        var parameters: [CodeBody.Parameter] = []
        switch node.signature?.parameterClause {
        case .simpleInput(let names):
            parameters = names.map { CodeBody.Parameter(label: "_", name: $0.name.text, isClosure: false) }
        case .parameterClause(let clause):
            parameters = clause.parameters.map {
                CodeBody.Parameter(
                    label: "_", name: ($0.secondName ?? $0.firstName).text,
                    isClosure: $0.type.map(Self.isFunctionType) ?? false)
            }
        case nil:
            break
        }
        var outside = self  // a `try` in a closure leaves the closure, whatever catches around it
        outside.catchesThrows = false
        let attributes = node.signature?.attributes
        let isolation: Isolation =
            attributes?.mentions("MainActor") == true
            ? .mainActor : attributes?.mentions("Sendable") == true ? .nonisolated : .unstated
        return CodeBody(
            kind: .closure, name: nil, parameters: parameters, isolation: isolation,
            isAsync: node.signature?.effectSpecifiers?.asyncSpecifier != nil, captures: captures,
            steps: outside.steps(node.statements), location: range(of: Syntax(node)))
    }
}
