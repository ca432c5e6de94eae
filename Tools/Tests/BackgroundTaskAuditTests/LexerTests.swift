import Testing

@testable import BackgroundTaskAudit

/// The lexer hides comments and every literal form, and keeps lines and columns right.
struct LexerTests {
    private func identifiers(_ source: String, _ language: SourceLanguage = .swift) -> [String] {
        Lexer.tokenize(Array(source.utf8), language: language).tokens.filter { $0.kind == .identifier }.map(\.text)
    }

    @Test("Swift comments, nested block comments and every string form are skipped")
    func swiftLiteralsAndCommentsAreSkipped() {
        let source = #"""
            a // begin
            /* outer /* inner */ still comment */ b
            let c = "x \(d("y")) z" + """
                multi "quoted" \(e)
                """ + #"raw "quote" \(notInterpolated)"# + ##"raw # "# still"##
            let r = #/regex "with quote/#
            f
            """#
        #expect(identifiers(source) == ["a", "b", "let", "c", "let", "r", "f"])
    }

    @Test("Objective-C strings, @-strings, character literals and C++ raw strings are skipped")
    func objectiveCLiteralsAreSkipped() {
        let source = #"""
            a @"obj \" c" b "c string" c '"' d R"x(raw ) " )x" e u8R"(y)" f
            /* block */ g // line
            """#
        #expect(identifiers(source, .objectiveC) == ["a", "b", "c", "d", "e", "f", "g"])
    }

    @Test("Lines and columns count from 1, across multi-line literals")
    func locationsAreOneBased() {
        let source = "let a = \"\"\"\n  x\n  \"\"\"\n  b"
        let tokens = Lexer.tokenize(Array(source.utf8), language: .swift).tokens
        let b = tokens.first { $0.text == "b" }
        #expect(b?.location == SourceLocation(line: 4, column: 3))
    }

    @Test(
        "Unterminated literals and comments end without a crash",
        arguments: [
            "let a = \"never closed", "/* never closed", "let a = \"\"\"\n never closed", "#\"raw", "\"\\(", "@\"", "'",
        ])
    func unterminatedInputEnds(_ source: String) {
        _ = Lexer.tokenize(Array(source.utf8), language: .swift)
        _ = Lexer.tokenize(Array(source.utf8), language: .objectiveC)
    }

    @Test("Suppression comments are collected with their lines")
    func suppressionCommentsAreCollected() {
        let source = "a\n// bgtask:ignore BT004\nb /* bgtask:ignore */\n// other\n"
        let comments = Lexer.tokenize(Array(source.utf8), language: .swift).suppressions
        #expect(comments.map(\.startLine) == [2, 3])
    }
}
