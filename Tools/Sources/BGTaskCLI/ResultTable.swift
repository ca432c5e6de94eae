import BackgroundTaskKit
import BackgroundTaskScenarios
import BackgroundTaskSimulation

/// Renders scenario results as an aligned text table with a summary line.
enum ResultTable {
    /// What the columns mean, printed under the table.
    static let legend = [
        "OUTCOME: terminated = killed by the watchdog, as a device would (CODE is iOS's exception code;",
        "  SIGABRT for the framework's exception); warned = iOS printed a console warning (\"Can't end",
        "  BackgroundTask\", \"created over 30 seconds ago\", …) or the debugger prevented a kill; expired = the",
        "  system expired a person-started continued-processing job as stalled; clean = none of these.",
        "  A face shows warned where iOS itself warns: in foreground-upload every assertion raised at begin",
        "  is \"created over 30 seconds ago\" after the 45 s upload, by design; manager-lazy (an assertion held",
        "  only in the background, holdsAssertionOnlyInBackground) is the way to stay clean there.",
        "TIME: virtual seconds when the run ended, by its own end or by expiry: \"clean 30 s\" can be work",
        "  the expiration handler cut short, cleanly. The naive variant is the raw UIKit or BGTaskScheduler",
        "  pattern; the others are this package's faces (scheduler, scheduler-callback and continued are",
        "  SafeTaskScheduler's). In third-party-sdk the SDK's code cannot change: traced runs it under",
        "  BackgroundTaskTracer, traced-rescue with the tracer's rescue.",
        "See why a naive flow fails, and the line to fix: bgtask simulate --explain SCENARIO",
    ]

    static func render(_ results: [ScenarioResult]) -> String {
        let header = ["SCENARIO", "VARIANT", "OUTCOME", "CODE", "TIME"]
        let rows = results.map { result in
            [
                result.scenario, result.variant, result.outcome.rawValue, result.code ?? "-",
                "\(formatSeconds(result.time)) s",
            ]
        }
        let lines = TextTable.render(header: header, rows: rows)
        let terminated = results.filter { $0.outcome == .terminated }.count
        let warned = results.filter { $0.outcome == .warned }.count
        let expired = results.filter { $0.outcome == .expired }.count
        let clean = results.count - terminated - warned - expired
        let runs = results.count == 1 ? "1 run" : "\(results.count) runs"
        let expiredPart = expired > 0 ? ", \(expired) expired" : ""
        let summary = "\(runs): \(terminated) terminated, \(warned) warned\(expiredPart), \(clean) clean"
        // The legend explains a catalog; under a single run it would outweigh the table.
        let footer = results.count > 1 ? legend : [legend[legend.count - 1]]
        return (lines + ["", summary, ""] + footer).joined(separator: "\n") + "\n"
    }
}
