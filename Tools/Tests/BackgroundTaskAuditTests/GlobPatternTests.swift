import BackgroundTaskAudit
import Testing

/// `--allow` globs: `*`, `**`, `?`, sets, anchoring.
struct GlobPatternTests {
    @Test(
        "Patterns match the paths they should",
        arguments: [
            ("Sources/Wrappers/*.swift", "Sources/Wrappers/Task.swift", true),
            ("Sources/Wrappers/*.swift", "./App/Sources/Wrappers/Task.swift", true),
            ("Sources/Wrappers/*.swift", "Sources/Wrappers/Deep/Task.swift", false),
            ("Sources/**", "Sources/A/B/C.m", true),
            ("**/Backend/*", "Sources/Kit/Backend/ApplicationBackend.swift", true),
            ("*Wrapper.m", "Legacy/BackgroundTaskWrapper.m", true),
            ("*Wrapper.m", "Legacy/BackgroundTaskWrapper.mm", false),
            ("Task?.swift", "Task1.swift", true),
            ("Task[0-9].swift", "TaskA.swift", false),
            ("Task[!0-9].swift", "TaskA.swift", true),
            ("/abs/*.swift", "/abs/A.swift", true),
            ("/abs/*.swift", "/other/abs/A.swift", false),
        ]
    )
    func patternMatches(_ pattern: String, _ path: String, _ expected: Bool) {
        #expect(GlobPattern(pattern).matches(path) == expected)
    }

    @Test("An allowed path silences BT001 and nothing else")
    func allowedPathSilencesOnlyRawBegin() {
        let source = "func f() { let t = UIApplication.shared.beginBackgroundTask(withName: \"A\") }"
        let allowed = Auditor.tokenRules(AuditConfiguration(allowedWrapperPaths: [GlobPattern("Wrappers/**")]))
        #expect(allowed.audit(source: source, path: "App/Wrappers/Raw.swift").map(\.ruleID) == ["BT003"])
        #expect(allowed.audit(source: source, path: "App/Other/Raw.swift").map(\.ruleID) == ["BT001", "BT003"])
    }
}
