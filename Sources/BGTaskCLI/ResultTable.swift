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
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let lines = ([header] + rows).map { row in
            row.enumerated()
                .map { column, cell in
                    column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }
                .joined(separator: "  ")
        }
        let terminated = results.filter { $0.outcome == .terminated }.count
        let summary = "\(results.count) runs: \(terminated) terminated, \(results.count - terminated) clean"
        return (lines + ["", summary]).joined(separator: "\n") + "\n"
    }
}
