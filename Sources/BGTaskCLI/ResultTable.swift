import BackgroundTaskKit
import BackgroundTaskScenarios
import BackgroundTaskSimulation

/// Renders scenario results as an aligned text table with a summary line.
enum ResultTable {
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
        let clean = results.count - terminated - warned
        let summary = "\(results.count) runs: \(terminated) terminated, \(warned) warned, \(clean) clean"
        return (lines + ["", summary]).joined(separator: "\n") + "\n"
    }
}
