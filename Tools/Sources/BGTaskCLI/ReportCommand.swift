import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import BackgroundTaskTimeline
import CommandLineSupport
import Foundation

/// `bgtask report FILE`: prints a saved diagnostics report, flight-recorder snapshot, list of probable
/// terminations, or MetricKit payload as a table of the leaking call sites and callers.
struct ReportCommand {
    enum Format: String {
        case text, json
    }

    var path: String?
    var format = Format.text
    /// `--timeline FILE`: the report's or snapshot's timeline, as SVG (text for `.txt`, printed for `-`).
    var timelinePath: String?

    static func parse(_ arguments: [String]) -> Result<ReportCommand, UsageError> {
        var command = ReportCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format":
                guard let value = remaining.popFirst(), let format = Format(rawValue: value) else {
                    return .failure(UsageError(message: "--format needs text or json"))
                }
                command.format = format
            case "--timeline":
                guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("--"),
                    command.timelinePath == nil
                else {
                    return .failure(UsageError(message: "--timeline needs one FILE"))
                }
                command.timelinePath = value
            default:
                guard !argument.hasPrefix("-") || argument == "-" else {
                    return .failure(UsageError(message: "unknown option '\(argument)'"))
                }
                guard command.path == nil else { return .failure(UsageError(message: "give one FILE")) }
                command.path = argument
            }
        }
        guard command.path != nil else { return .failure(UsageError(message: "missing FILE")) }
        if command.format == .json, command.timelinePath == "-" {
            return .failure(UsageError(message: "--timeline - prints a text chart, which would break --format json"))
        }
        return .success(command)
    }

    /// What keeps `path` from being read as a saved file, in words a user can act on; `nil` when it is a regular
    /// file this process may read.
    static func unreadableFileProblem(_ path: String) -> String? {
        let files = FileManager.default
        // What a link points to is what gets read.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? files.attributesOfItem(atPath: target) else {
            return "cannot read \(path): no such file"
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?:
            return "\(path) is a directory: give the file a report or snapshot was saved to"
        case .typeRegular?:
            return files.isReadableFile(atPath: target) ? nil : "cannot read \(path): permission denied"
        default:
            return
                "\(path) is not a regular file (a pipe, socket or device): to read from a pipe, use `bgtask report -`"
        }
    }

    func run() -> CommandResult {
        guard let path else { return .usageError("missing FILE", command: "report") }
        if path != "-", let problem = Self.unreadableFileProblem(path) {
            return CommandResult(exitStatus: 2, standardError: "error: \(problem)\n")
        }
        let data: Data
        do {
            data =
                try path == "-"
                ? FileHandle.standardInput.readToEnd() ?? Data() : Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return CommandResult(
                exitStatus: 2, standardError: "error: cannot read \(path): \(error.localizedDescription)\n")
        }
        guard let document = SavedDocument(data) else {
            return CommandResult(
                exitStatus: 2,
                standardError: """
                    error: \(path) is not a background-task report, flight-recorder snapshot, list of probable \
                    terminations, or MetricKit payload

                    """
            )
        }
        let output: CommandResult =
            switch format {
            case .text: .success(document.text().joined(separator: "\n") + "\n")
            case .json: .success(document.json())
            }
        guard let timelinePath else { return output }
        guard let timeline = document.timeline else {
            return CommandResult(
                exitStatus: 2, standardOutput: output.standardOutput,
                standardError:
                    "error: \(path) is \(document.kindDescription), which records no times: --timeline draws "
                    + "a report or a flight-recorder snapshot\n")
        }
        return TimelineOutput.adding([timeline], at: timelinePath, to: output)
    }
}

/// A file `bgtask report` understands, decoded.
enum SavedDocument {
    case report(BackgroundTaskReport)
    case snapshot(FlightRecorderSnapshot)
    case terminations([ProbableBackgroundTaskTermination])
    case crashDiagnostics([CrashDiagnosticRecord])
    case exitCounts([BackgroundExitCounts])

    init?(_ data: Data) {
        let decoder = JSONDecoder()
        if let report = try? decoder.decode(BackgroundTaskReport.self, from: data) {
            self = .report(report)
        } else if let snapshot = try? decoder.decode(FlightRecorderSnapshot.self, from: data) {
            self = .snapshot(snapshot)
        } else if let terminations = try? decoder.decode([ProbableBackgroundTaskTermination].self, from: data) {
            self = .terminations(terminations)
        } else if let counts = try? MetricKitJSON.backgroundExitCounts(in: data), !counts.isEmpty {
            self = .exitCounts(counts)
        } else if let crashes = try? MetricKitJSON.crashDiagnostics(in: data) {
            self = .crashDiagnostics(crashes)
        } else {
            return nil
        }
    }

    /// The document's timeline: reports and snapshots have one; lists of terminations and MetricKit payloads do not.
    var timeline: BackgroundTaskTimeline? {
        switch self {
        case .report(let report): BackgroundTaskTimeline(report: report)
        case .snapshot(let snapshot): BackgroundTaskTimeline(snapshot: snapshot)
        case .terminations, .crashDiagnostics, .exitCounts: nil
        }
    }

    /// What kind of document it is, in words.
    var kindDescription: String {
        switch self {
        case .report: "a report"
        case .snapshot: "a flight-recorder snapshot"
        case .terminations: "a list of probable terminations"
        case .crashDiagnostics: "a MetricKit diagnostic payload"
        case .exitCounts: "a MetricKit metric payload"
        }
    }

    /// The age at which a task still running counts as held too long: iOS's own warning comes at 30 s.
    static let heldTooLongAge: TimeInterval = 30

    /// The call sites of a report that leaked or misbehaved, worst first. A task still running counts only once it is
    /// `heldTooLongAge` old (a report saved without ages counts it): a young running task is just working.
    static func leaking(_ report: BackgroundTaskReport) -> [CallSiteStatistics] {
        report.callSites
            .filter {
                let heldTooLong = $0.outstanding > 0 && ($0.oldestOutstandingAge ?? .infinity) >= heldTooLongAge
                // Counters from a file: compared one by one, never summed (a corrupt file must not overflow).
                return heldTooLong
                    || [$0.expired, $0.endedBySafetyNet, $0.heldAfterHandlers, $0.doubleEnds, $0.endedAfterRescue]
                        .contains { $0 > 0 }
            }
            .sorted {
                ($0.heldAfterHandlers, $0.outstanding, $0.endedBySafetyNet, $0.expired)
                    > ($1.heldAfterHandlers, $1.outstanding, $1.endedBySafetyNet, $1.expired)
            }
    }

    func text() -> [String] {
        switch self {
        case .report(let report):
            let leaking = Self.leaking(report)
            var lines = [
                "Background-task report (version \(report.version)): \(report.callSites.count) call sites, "
                    + "\(leaking.count) leaking or misbehaving; most held at once: \(report.outstandingHighWaterMark)."
            ]
            guard !leaking.isEmpty else { return lines + ["No call site leaked."] }
            lines += TextTable.render(
                header: [
                    "CALL SITE", "BEGUN", "ENDED", "EXPIRED", "HELD AFTER HANDLERS", "RESCUED", "SAFETY NET",
                    "DOUBLE ENDS", "UNNAMED", "HELD NOW",
                ],
                rows: leaking.map { site in
                    [site.callSite.description]
                        + [
                            site.begun, site.ended, site.expired, site.heldAfterHandlers, site.rescued,
                            site.endedBySafetyNet, site.doubleEnds, site.unnamed, site.outstanding,
                        ].map(String.init)
                }
            )
            return lines
        case .snapshot(let snapshot):
            var lines = [
                "Flight-recorder snapshot of process \(snapshot.processID), build \(snapshot.appBuild ?? "unknown"), "
                    + "moment \(snapshot.moment.rawValue), in background: "
                    + (snapshot.inBackground.map { $0 ? "yes" : "no" } ?? "unknown") + "."
            ]
            if let record = ProbableBackgroundTaskTermination(snapshot: snapshot) {
                lines.append(
                    "Had the process vanished here, the next launch records a probable background-task "
                        + "termination (evidence: \(record.evidence.rawValue)).")
            } else {
                lines.append("Had the process vanished here, it was not for a background task.")
            }
            guard !snapshot.tasks.isEmpty else { return lines + ["No task held."] }
            lines += TextTable.render(
                header: ["CALL SITE", "NAME", "AGE", "EXPIRY", "SOURCE"],
                rows: snapshot.tasks.map { task in
                    [
                        task.callSite.description, task.name ?? "(unnamed)", "\(formatSeconds(task.age)) s",
                        task.handlerReturned ? "handler returned" : task.expiryStarted ? "handler running" : "-",
                        task.source,
                    ]
                }
            )
            if snapshot.omittedTaskCount > 0 { lines.append("… and \(snapshot.omittedTaskCount) more tasks.") }
            return lines
        case .terminations(let terminations):
            let lines = ["\(terminations.count) probable background-task terminations."]
            guard !terminations.isEmpty else { return lines }
            return lines
                + TextTable.render(
                    header: ["PROCESS", "BUILD", "EVIDENCE", "CONFIRMED", "CALL SITES"],
                    rows: terminations.map { record in
                        [
                            String(record.processID), record.appBuild ?? "unknown", record.evidence.rawValue,
                            record.confirmation.map { "\($0.kind.rawValue) (\($0.match.rawValue))" } ?? "no",
                            record.callSites.map(\.description).joined(separator: "; "),
                        ]
                    }
                )
        case .crashDiagnostics(let crashes):
            let relevant = crashes.filter { $0.kind.concernsBackgroundTasks }
            let lines = [
                "MetricKit diagnostic payload: \(crashes.count) crash diagnostics, \(relevant.count) about background tasks."
            ]
            guard !crashes.isEmpty else { return lines }
            return lines
                + TextTable.render(
                    header: ["PROCESS", "BUILD", "KIND", "TERMINATION REASON"],
                    rows: crashes.map { crash in
                        [
                            crash.processID.map(String.init) ?? "unknown", crash.appBuild, crash.kind.rawValue,
                            crash.terminationReason ?? "-",
                        ]
                    }
                )
        case .exitCounts(let counts):
            return ["MetricKit metric payload: background exits."]
                + TextTable.render(
                    header: ["BUILD", "TASK ASSERTION TIMEOUT", "WATCHDOG", "NORMAL", "OTHER"],
                    rows: counts.map { count in
                        [count.appBuild ?? "unknown"]
                            + [
                                count.backgroundTaskAssertionTimeout, count.appWatchdog, count.normal, count.other,
                            ].map(String.init)
                    }
                )
        }
    }

    /// `{"kind": …, "summary": …, "leaking": […]}`: the leaking rows in their own JSON encoding.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let summary = text().first ?? ""
        let data: Data?
        switch self {
        case .report(let report):
            data = try? encoder.encode(JSONDocument(kind: "report", summary: summary, leaking: Self.leaking(report)))
        case .snapshot(let snapshot):
            data = try? encoder.encode(JSONDocument(kind: "snapshot", summary: summary, leaking: snapshot.tasks))
        case .terminations(let terminations):
            data = try? encoder.encode(JSONDocument(kind: "terminations", summary: summary, leaking: terminations))
        case .crashDiagnostics(let crashes):
            data = try? encoder.encode(
                JSONDocument(
                    kind: "metrickit-diagnostics", summary: summary,
                    leaking: crashes.filter { $0.kind.concernsBackgroundTasks }))
        case .exitCounts(let counts):
            data = try? encoder.encode(JSONDocument(kind: "metrickit-metrics", summary: summary, leaking: counts))
        }
        return (data.flatMap { String(data: $0, encoding: .utf8) } ?? "{}") + "\n"
    }
}

/// The JSON form of a document.
private struct JSONDocument<Row: Encodable>: Encodable {
    let kind: String
    let summary: String
    let leaking: [Row]
}
