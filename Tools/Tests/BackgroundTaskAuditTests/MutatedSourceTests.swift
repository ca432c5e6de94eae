import BackgroundTaskAudit
import Testing

/// Broken code never traps the audit: every fixture, cut short, with brackets, keywords and half characters
/// dropped in or taken out, is audited to the end. (A cut file leaves scopes unterminated, which once put a
/// computed position past a scope's end and made a range trap.)
@Suite(.serialized)
struct MutatedSourceTests {
    /// A fixed sequence of pseudo-random numbers, so that a failure names a case that can be run again.
    private struct Generator {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }

    private static let insertions: [[UInt8]] =
        [
            "}", "{", ")", "(", "]", "[", "^", "\"", "'", "/*", "return", "guard", "else", "=", "?", ".", "self",
            "#selector(", "case", "switch", "do {", "catch",
        ].map { Array($0.utf8) } + [[0xE2, 0x82]]  // half a UTF-8 character

    @Test("Mutated fixtures are audited without a trap", arguments: Fixture.all)
    func mutatedFixtureIsAudited(_ fixture: Fixture) throws {
        let original = Array(try fixture.source().utf8)
        var generator = Generator(
            state: UInt64(truncatingIfNeeded: fixture.fileName.utf8.count * 7919 + original.count))
        for round in 0..<12 {
            var bytes = original
            for _ in 0...generator.next(below: 6) where !bytes.isEmpty {
                let at = generator.next(below: bytes.count + 1)
                switch generator.next(below: 10) {
                case 0...2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + generator.next(below: 80)))
                case 3...6:
                    bytes.insert(contentsOf: Self.insertions[generator.next(below: Self.insertions.count)], at: at)
                default: bytes.removeSubrange(at..<bytes.count)
                }
            }
            let source = String(decoding: bytes, as: UTF8.self)
            let findings = Auditor().audit(
                source: source, path: "App/Mutated\(round).\(fixture.fileName.hasSuffix(".m") ? "m" : "swift")")
            #expect(findings.allSatisfy { $0.location.line >= 1 })
        }
    }
}
