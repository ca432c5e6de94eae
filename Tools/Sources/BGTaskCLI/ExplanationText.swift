import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskScenarios
import BackgroundTaskSimulation
import Foundation

/// Renders what `bgtask simulate --explain` prints: the verdict, the held assertions, the events an
/// observer got and the report per call site, ending with the lines to fix.
enum ExplanationText {
    /// Events listed before the rest are summarized (a burst of a thousand tasks is one line a kind).
    static let maximumEvents = 12

    static func render(_ explanation: ScenarioExplanation, summary: String) -> String {
        var lines = ["Scenario \(explanation.scenario): \(summary)", ""]
        let result = explanation.result
        if let termination = explanation.termination {
            lines.append(
                "The naive flow was terminated with \(termination.code) at \(formatSeconds(termination.time)) s.")
            if !termination.heldAssertions.isEmpty {
                lines.append("Assertions the system still held:")
                lines += termination.heldAssertions.prefix(maximumEvents).map { "  \($0)" }
                if termination.heldAssertions.count > maximumEvents {
                    lines.append("  … and \(termination.heldAssertions.count - maximumEvents) more")
                }
            }
        } else {
            lines.append("The naive flow ended \(result.outcome.rawValue) at \(formatSeconds(result.time)) s.")
        }
        lines += ["", "What iOS printed to the console:"]
        if explanation.consoleMessages.isEmpty {
            lines.append("  (nothing)")
        } else {
            lines += explanation.consoleMessages.prefix(maximumEvents).map {
                "  \(formatSeconds($0.time)) s  \($0.message.text)"
            }
            if explanation.consoleMessages.count > maximumEvents {
                lines.append("  … and \(explanation.consoleMessages.count - maximumEvents) more messages")
            }
        }
        lines += ["", "What an observer of a DiagnosingBackend was told:"]
        lines += eventLines(explanation.notableEvents)
        lines += ["", "The report (DiagnosingBackend.report()), per call site:"]
        lines += TextTable.render(
            header: ["CALL SITE", "BEGUN", "ENDED", "EXPIRED", "SAFETY NET", "NOT GRANTED", "OUTSTANDING", "OLDEST"],
            rows: explanation.report.callSites.map { site in
                [
                    site.callSite.description, "\(site.begun)", "\(site.ended)", "\(site.expired)",
                    "\(site.endedBySafetyNet)", "\(site.notGranted)", "\(site.outstanding)",
                    site.oldestOutstandingAge.map { "\(formatSeconds($0)) s" } ?? "-",
                ]
            },
            indent: "  "
        )
        lines.append("  high-water mark (most assertions held at once): \(explanation.report.outstandingHighWaterMark)")
        lines.append("")
        let leaking = explanation.leakingCallSites
        if leaking.isEmpty {
            lines.append("No call site leaked.")
        } else {
            lines.append("The line\(leaking.count == 1 ? "" : "s") to fix:")
            lines += leaking.map { "  \($0)" }
            lines.append(
                "Compare: bgtask simulate --scenario \(explanation.scenario) runs the same flow with each wrapper.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func eventLines(_ events: [BackgroundTaskEvent]) -> [String] {
        guard !events.isEmpty else { return ["  (nothing beyond began and ended)"] }
        var lines = events.prefix(maximumEvents).map { event in
            let name = event.name.map { "\"\($0)\"" } ?? "(unnamed)"
            return "  \(formatSeconds(event.time)) s  \(describe(event.kind))  \(name) begun at \(event.callSite)"
        }
        if events.count > maximumEvents {
            lines.append("  … and \(events.count - maximumEvents) more events")
        }
        return lines
    }

    static func describe(_ kind: BackgroundTaskEvent.Kind) -> String {
        switch kind {
        case .began: "began"
        case .ended: "ended"
        case .expired: "expired"
        case .expirationHandlerEntered: "expiration handler entered"
        case .expirationHandlerExited(let duration): "expiration handler exited after \(formatSeconds(duration)) s"
        case .endedBySafetyNet: "ended by the safety net"
        case .refused(let error): "refused: \(error)"
        case .stale(let age): "stale: begun \(formatSeconds(age)) s ago"
        case .limitApproaching(let outstanding, let limit): "limit approaching: \(outstanding) of \(limit) held"
        case .heldAfterExpirationHandlers: "still held after its expiration handler returned"
        case .rescued: "rescued: ended by the tracer"
        case .endedTwice: "ended twice"
        case .endedAfterRescue: "ended by its owner after the rescue (not passed on)"
        }
    }
}
