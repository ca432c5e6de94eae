import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskScenarios
import BackgroundTaskSimulation
import Foundation

/// `bgtask simulate`: runs the scenario catalog and prints the outcomes.
struct SimulateCommand {
    enum Format: String {
        case table, json
    }

    var format = Format.table
    var scenarioIDs: [String] = []
    var variantNames: [String] = []
    var listOnly = false
    /// `--explain ID`: explain this scenario's naive flow instead of running the catalog.
    var explainID: String?

    static func parse(_ arguments: [String]) -> Result<SimulateCommand, UsageError> {
        var command = SimulateCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format", "--scenario", "--variant", "--explain":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    return .failure(UsageError(message: "\(argument) needs a value"))
                }
                switch argument {
                case "--format":
                    guard let format = Format(rawValue: value) else {
                        return .failure(UsageError(message: "unknown format '\(value)' (use table or json)"))
                    }
                    command.format = format
                case "--scenario", "--explain":
                    // Case-insensitive, as `audit --explain` is: the catalog's own spelling is used from here on.
                    guard let id = ScenarioCatalog.all.first(where: { $0.id.lowercased() == value.lowercased() })?.id
                    else {
                        let known = ScenarioCatalog.all.map(\.id).joined(separator: ", ")
                        return .failure(UsageError(message: "unknown scenario '\(value)' (known: \(known))"))
                    }
                    let value = id
                    if argument == "--explain" {
                        guard command.explainID == nil else {
                            return .failure(UsageError(message: "--explain takes one scenario"))
                        }
                        command.explainID = value
                    } else {
                        command.scenarioIDs.append(value)
                    }
                default:
                    command.variantNames.append(value)
                }
            case "--list":
                command.listOnly = true
            default:
                return .failure(UsageError(message: "unknown option '\(argument)' for simulate"))
            }
        }
        if command.explainID != nil, command.listOnly || !command.scenarioIDs.isEmpty || !command.variantNames.isEmpty {
            return .failure(UsageError(message: "--explain cannot be combined with --list, --scenario or --variant"))
        }
        return .success(command)
    }

    var selectedScenarios: [Scenario] {
        let scenarios = ScenarioCatalog.all.filter { scenarioIDs.isEmpty || scenarioIDs.contains($0.id) }
        guard !variantNames.isEmpty else { return scenarios }
        return scenarios.map { scenario in
            Scenario(
                id: scenario.id,
                summary: scenario.summary,
                variants: scenario.variants.filter { variantNames.contains($0.name) }
            )
        }
    }

    @MainActor
    func run() async -> CommandResult {
        if let explainID {
            return await explain(explainID)
        }
        let scenarios = selectedScenarios
        if listOnly {
            let lines = scenarios.map { "\($0.id) [\($0.variants.map(\.name).joined(separator: ", "))]: \($0.summary)" }
            return .success(lines.joined(separator: "\n") + "\n")
        }
        let results = await ScenarioRunner.runAll(scenarios)
        if results.isEmpty {
            return .usageError(noVariantMessage, command: "simulate")
        }
        switch format {
        case .table:
            return .success(ResultTable.render(results))
        case .json:
            return Self.json(results)
        }
    }

    /// Why `--variant` selected nothing: which of the chosen scenarios lack it, and which scenarios have it.
    private var noVariantMessage: String {
        let names = variantNames.joined(separator: ", ")
        let owners = ScenarioCatalog.all.filter { scenario in
            scenario.variants.contains { variantNames.contains($0.name) }
        }
        guard !scenarioIDs.isEmpty else { return "no scenario has a variant named \(names)" }
        let chosen = ScenarioCatalog.all.filter { scenarioIDs.contains($0.id) }
        let theirs =
            chosen.count == 1
            ? [chosen[0].variants.map(\.name).joined(separator: ", ")]
            : chosen.map { "\($0.id): \($0.variants.map(\.name).joined(separator: ", "))" }
        let elsewhere =
            owners.isEmpty
            ? "no scenario has it" : "it belongs to \(owners.map(\.id).joined(separator: ", "))"
        return "scenario \(scenarioIDs.joined(separator: ", ")) has no variant named \(names) (its variants: "
            + theirs.joined(separator: "; ") + "); \(elsewhere)"
    }

    @MainActor
    private func explain(_ id: String) async -> CommandResult {
        if let scenario = ScenarioCatalog.scenario(withID: id), scenario.naiveFlow == nil, format == .table,
            scenario.id != "third-party-sdk", let naive = scenario.variant(named: ScenarioVariant.naive)
        {
            // Written against the simulated scheduler or with async work: its log tells the story.
            let (result, simulator) = await ScenarioRunner.run(naive, of: scenario)
            let outcome = [result.outcome.rawValue, result.code, "at \(formatSeconds(result.time)) s"]
            let lines =
                [
                    "\(scenario.id): \(scenario.summary)", "naive: " + outcome.compactMap { $0 }.joined(separator: " "),
                    "",
                ]
                + ["What the system saw:"] + simulator.log.map { "  \($0)" }
                + ["", "The faces: bgtask simulate --scenario \(scenario.id)"]
            return .success(lines.joined(separator: "\n") + "\n")
        }
        guard let scenario = ScenarioCatalog.scenario(withID: id),
            let explanation = await ScenarioRunner.explain(scenario)
        else {
            // A scenario of code the app cannot change has its own variants, not a raw flow to diagnose.
            let hint =
                ScenarioCatalog.scenario(withID: id).map { scenario in
                    "; run 'bgtask simulate --scenario \(id)' for its variants ("
                        + scenario.variants.map(\.name).joined(separator: ", ") + ")"
                } ?? ""
            return .usageError(
                "scenario '\(id)' cannot be explained: its leak is in code the app cannot change (an SDK's raw "
                    + "calls), where --explain diagnoses the app's own naive flow\(hint)", command: "simulate")
        }
        switch format {
        case .table:
            return .success(ExplanationText.render(explanation, summary: scenario.summary))
        case .json:
            return Self.json(
                ExplanationJSON(
                    scenario: explanation.scenario,
                    result: explanation.result,
                    leakingCallSites: explanation.leakingCallSites,
                    report: explanation.report
                )
            )
        }
    }

    private static func json(_ value: some Encodable) -> CommandResult {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return CommandResult(exitStatus: 1, standardError: "error: could not encode the results as JSON\n")
        }
        return .success(text + "\n")
    }
}

/// The JSON of `bgtask simulate --explain ID --format json`.
private struct ExplanationJSON: Encodable {
    let scenario: String
    let result: ScenarioResult
    let leakingCallSites: [BackgroundTaskCallSite]
    let report: BackgroundTaskReport
}
