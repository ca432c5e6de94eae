import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskScenarios
import BackgroundTaskSimulation
import BackgroundTaskTimeline
import CommandLineSupport
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
    /// `--timeline FILE`: the runs' timelines, one panel each, as SVG (or text for `.txt`, printed for `-`).
    var timelinePath: String?
    /// `--timelines DIR`: one SVG per scenario, its variants stacked.
    var timelineFolder: String?

    static func parse(_ arguments: [String]) -> Result<SimulateCommand, UsageError> {
        var command = SimulateCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format", "--scenario", "--variant", "--explain", "--timeline", "--timelines":
                guard let value = remaining.popFirst(), !value.hasPrefix("--"), !value.isEmpty else {
                    return .failure(UsageError(message: "\(argument) needs a value"))
                }
                switch argument {
                case "--timeline":
                    guard command.timelinePath == nil else {
                        return .failure(UsageError(message: "--timeline takes one FILE"))
                    }
                    command.timelinePath = value
                case "--timelines":
                    guard command.timelineFolder == nil, value != "-" else {
                        return .failure(UsageError(message: "--timelines takes one folder"))
                    }
                    command.timelineFolder = value
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
        if command.listOnly, command.timelinePath != nil || command.timelineFolder != nil {
            return .failure(UsageError(message: "--list runs nothing, so it draws no timeline"))
        }
        if command.format == .json, command.timelinePath == "-" {
            return .failure(UsageError(message: "--timeline - prints a text chart, which would break --format json"))
        }
        if command.explainID != nil, command.timelineFolder != nil {
            return .failure(UsageError(message: "--explain draws one run: use --timeline FILE"))
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
        let drawing = timelinePath != nil || timelineFolder != nil
        var results: [ScenarioResult] = []
        var files: [(name: String, timelines: [BackgroundTaskTimeline])] = []
        for scenario in scenarios {
            var timelines: [BackgroundTaskTimeline] = []
            for variant in scenario.variants {
                let (result, simulator) = await ScenarioRunner.run(variant, of: scenario)
                results.append(result)
                if drawing {
                    timelines.append(ScenarioRunner.timeline(of: simulator, title: "\(scenario.id) — \(variant.name)"))
                }
            }
            if drawing, !timelines.isEmpty { files.append((scenario.id, timelines)) }
        }
        if results.isEmpty {
            return .usageError(noVariantMessage, command: "simulate")
        }
        var output: CommandResult =
            switch format {
            case .table: .success(ResultTable.render(results))
            case .json: Self.json(results)
            }
        if let timelineFolder {
            if case .failure(let error) = TimelineOutput.write(files, into: timelineFolder) {
                return CommandResult(
                    exitStatus: 2, standardOutput: output.standardOutput, standardError: "error: \(error.message)\n")
            }
            output.standardError += "Timelines written to \(timelineFolder) (\(files.count) files).\n"
        }
        if let timelinePath {
            output = TimelineOutput.adding(files.flatMap(\.timelines), at: timelinePath, to: output)
        }
        return output
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
            let output = CommandResult.success(lines.joined(separator: "\n") + "\n")
            guard let timelinePath else { return output }
            return TimelineOutput.adding(
                [ScenarioRunner.timeline(of: simulator, title: "\(scenario.id) — naive")], at: timelinePath, to: output)
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
        let output = explanationOutput(explanation, summary: scenario.summary)
        guard let timelinePath, output.exitStatus == 0 else { return output }
        return TimelineOutput.adding([explanation.timeline], at: timelinePath, to: output)
    }

    private func explanationOutput(_ explanation: ScenarioExplanation, summary: String) -> CommandResult {
        switch format {
        case .table:
            return .success(ExplanationText.render(explanation, summary: summary))
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
