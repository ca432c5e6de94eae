/// What a reset to "no task" looks like after an `=`: `.invalid`, `UIBackgroundTaskIdentifier.invalid`,
/// `UIBackgroundTaskInvalid`, a project's own constant named `…Invalid`
/// (`GDTCORBackgroundIdentifierInvalid`, `kSEGBackgroundTaskInvalid`), `nil` or `0`.
enum InvalidValue {
    /// Whether the value after the `=` at `equals` is an invalid identifier.
    static func follows(_ equals: Int, in syntax: SourceSyntax) -> Bool {
        guard let value = syntax.token(equals + 1) else { return false }
        if value.isIdentifier("nil") || value.isIdentifier("UIBackgroundTaskInvalid") || value.text == "0" {
            return true
        }
        if value.kind == .identifier, value.text.hasSuffix("Invalid"),
            syntax.token(equals + 2).map({ $0.is(";") || $0.line > value.line || $0.is("}") }) ?? true
        {
            return true
        }
        if value.is("."), syntax.token(equals + 2)?.isIdentifier("invalid") == true { return true }
        return value.isIdentifier("UIBackgroundTaskIdentifier")
            && syntax.token(equals + 3)?.isIdentifier("invalid") == true
    }
}
