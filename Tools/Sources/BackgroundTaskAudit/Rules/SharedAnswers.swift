/// Answers computed once per file and shared by the rules that need them. A file is analysed on
/// one thread, so the cache needs no lock. It holds plain values only — never the analysis itself
/// or an object that does — so that it cannot keep a file's syntax alive in a cycle.
final class SharedAnswers {
    /// Every identifier token of the file, by name.
    var occurrences: [String: [Int]]?
    /// Calls of same-file functions, by name.
    var callsByName: [String: [Int]] = [:]
    /// ``FileAnalysis/functionsThatEnd``, which four rules read.
    var functionsThatEnd: Set<String>?
    /// BT005's hits, which BT007 reads too.
    var storedIdentifierHits: [RuleHit]?
    /// Function scopes by name (up to the first `:`), for following a call to a same-file helper.
    var functionsByName: [String: [Int]]?
    /// Objective-C: each `@implementation`'s token range and class name, in order.
    var implementations: [(range: Range<Int>, name: String)]?
    /// Names the file assigns a URL session made with the main delegate queue.
    var mainQueueSessions: Set<String>?
}
