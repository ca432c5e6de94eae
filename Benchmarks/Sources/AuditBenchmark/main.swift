import BackgroundTaskAudit
import Foundation

// Usage: AuditBenchmark [--lines N] [--share S] [--runs R]
//        AuditBenchmark --model-of PATH...   (reads existing trees into the code model only: time and counts)
// Writes a tree of about N lines (default 1,000,000) to a temporary folder, audits it R times
// (default 3) for each share of files with background-task calls (default: 0.2 and 1.0) with the
// token rules, and as many times with the code model (`--engine model --level suspected`: the files
// worth reading parsed by both front ends, indexed, every rule run); prints the figures and removes
// the tree.

var targetLines = 1_000_000
var shares: [Double] = [0.2, 1.0]
var runs = 3
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
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

print("bgtask audit benchmark: \(ProcessInfo.processInfo.activeProcessorCount) processors")
for share in shares {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-audit-benchmark-\(UUID())")
    defer { try? FileManager.default.removeItem(at: root) }
    let summary = try CorpusGenerator(targetLines: targetLines, callSiteShare: share).write(into: root)
    print(
        "tree: \(summary.files) files, \(summary.lines) lines, \(summary.bytes / 1_000_000) MB; "
            + "\(Int(share * 100))% of files with background-task calls"
    )
    var times: [Duration] = []
    var findings = 0
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await Auditor().audit(paths: [root.path])
        times.append(clock.now - start)
        findings = report.findings.count
    }
    times.sort()
    let median = times[times.count / 2]
    let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
    let best = times[0]
    let bestSeconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    print(
        String(
            format: "  audit: median %.2f s, best %.2f s over %d runs (%.0f lines/s), %d findings",
            seconds,
            bestSeconds,
            runs,
            Double(summary.lines) / seconds,
            findings
        )
    )
    var modelTimes: [Double] = []
    var modelFindings = 0
    var configuration = AuditConfiguration()
    configuration.engine = .codeModel
    configuration.level = .suspected
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await Auditor(configuration: configuration).audit(paths: [root.path])
        let elapsed = clock.now - start
        modelTimes.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        modelFindings = report.findings.count
    }
    modelTimes.sort()
    print(
        String(
            format: "  audit --engine model --level suspected: median %.2f s, best %.2f s over %d runs, %d findings",
            modelTimes[modelTimes.count / 2], modelTimes[0], runs, modelFindings))
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
