import BackgroundTaskAudit
import Foundation

// Usage: AuditBenchmark [--lines N] [--share S] [--runs R]
//        AuditBenchmark --tree PATH [--runs R]    (audits an existing tree instead of a generated one)
//        AuditBenchmark ... --only K   (only the K-th way of running the audit below, from 0: for a profiler)
//        AuditBenchmark --model-of PATH...   (reads existing trees into the code model only: time and counts)
// Writes a tree of about N lines (default 1,000,000) to a temporary folder, audits it R times
// (default 3) for each share of files with background-task calls (default: 0.2 and 1.0): with the
// token rules (`--engine tokens`), with the default (the code model at `--level proven`), and with
// `--level suspected` (the code model's suspected chains and the token rules' patterns); prints
// the figures and removes the tree.

var targetLines = 1_000_000
var shares: [Double] = [0.2, 1.0]
var runs = 3
var tree: String?
var only: Int?
var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--model-of" {
    for path in arguments.dropFirst() {
        let clock = ContinuousClock()
        let start = clock.now
        let index = try await CodeModelReader.read(paths: [path])
        let elapsed = clock.now - start
        let bodies = index.files.reduce(0) { $0 + $1.bodies.count }
        print("\(path): \(index.files.count) files, \(bodies) bodies, \(elapsed)")
    }
    exit(0)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--lines": targetLines = arguments.popFirst().flatMap(Int.init) ?? targetLines
    case "--share": shares = arguments.popFirst().flatMap(Double.init).map { [$0] } ?? shares
    case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? runs
    case "--tree": tree = arguments.popFirst()
    case "--only": only = arguments.popFirst().flatMap(Int.init)
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

/// Audits `root` `runs` times with `configuration` and prints the median and best wall times.
@MainActor
func measure(_ label: String, _ configuration: AuditConfiguration, root: String, lines: Int) async throws {
    var times: [Double] = []
    var findings = 0
    var suspected = 0
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await Auditor(configuration: configuration).audit(paths: [root])
        let elapsed = clock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        findings = report.findings.count
        suspected = report.suspectedCount
    }
    times.sort()
    let median = times[times.count / 2]
    print(
        String(
            format: "  %@: median %.2f s, best %.2f s over %d runs (%.0f lines/s), %d findings, %d suspected not shown",
            label, median, times[0], runs, Double(lines) / median, findings, suspected))
}

/// The three ways the audit is run: the token rules, the default, and the default with suspected findings.
@MainActor
func configurations() -> [(String, AuditConfiguration)] {
    var tokens = AuditConfiguration()
    tokens.engine = .tokens
    var suspected = AuditConfiguration()
    suspected.level = .suspected
    let all = [
        ("audit --engine tokens", tokens), ("audit (default: --engine model --level proven)", AuditConfiguration()),
        ("audit --level suspected", suspected),
    ]
    return only.map { all.indices.contains($0) ? [all[$0]] : [] } ?? all
}

print("bgtask audit benchmark: \(ProcessInfo.processInfo.activeProcessorCount) processors")
if let tree {
    let lines = try SourceLineCount.count(in: tree)
    print("tree: \(tree), \(lines.files) Swift and Objective-C files, \(lines.lines) lines")
    for (label, configuration) in configurations() {
        try await measure(label, configuration, root: tree, lines: lines.lines)
    }
} else {
    for share in shares {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-audit-benchmark-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let summary = try CorpusGenerator(targetLines: targetLines, callSiteShare: share).write(into: root)
        print(
            "tree: \(summary.files) files, \(summary.lines) lines, \(summary.bytes / 1_000_000) MB; "
                + "\(Int(share * 100))% of files with background-task calls"
        )
        for (label, configuration) in configurations() {
            try await measure(label, configuration, root: root.path, lines: summary.lines)
        }
    }
}

// Peak memory of the whole run (generation included), as the kernel counts it.
var usage = rusage()
#if os(Linux)
    let whoSelf = RUSAGE_SELF.rawValue
#else
    let whoSelf = RUSAGE_SELF
#endif
if getrusage(whoSelf, &usage) == 0 {
    #if os(Linux)
        let peakBytes = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #else
        let peakBytes = Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
    print("peak resident memory: \(peakBytes / 1_000_000) MB")
}
