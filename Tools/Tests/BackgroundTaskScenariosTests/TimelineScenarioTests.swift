import BackgroundTaskKitTesting
import BackgroundTaskScenarios
import Foundation
import Testing
import ToolTestSupport

/// The timelines of the catalog's runs: each picture holds one lane per assertion, launched task and file lock, with
/// the times, endings and marks of the simulator's history, and the termination with its code.
@MainActor
struct TimelineScenarioTests {
    /// A time as the picture writes it: at most three decimals.
    private static func written(_ time: TimeInterval) -> Double {
        (time * 1_000).rounded() / 1_000
    }

    @Test(arguments: ScenarioCatalog.all.map(\.id))
    func everyVariantsPictureHoldsItsLanesTimesAndCode(_ id: String) async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: id))
        for variant in scenario.variants {
            let run = "\(id)/\(variant.name)"
            let (_, simulator) = await ScenarioRunner.run(variant, of: scenario)
            let svg = try #require(SVGDocument(simulator.timeline(title: run).svg()), "\(run): not well-formed")
            let lanes = svg.root.all(withClass: "lane")
            let folded = svg.root.all(withClass: "band").compactMap { $0.number("count") }.reduce(0, +)
            let history = simulator.assertionHistory
            let launches = simulator.events.count { if case .scheduledTaskLaunched = $0 { true } else { false } }
            let locks = simulator.events.count { if case .fileLockTaken = $0 { true } else { false } }
            #expect(lanes.count + Int(folded) == history.count + launches + locks, "\(run)")

            let records = Dictionary(history.map { (String($0.assertion.identifier.rawValue), $0) }) { first, _ in first
            }
            for lane in lanes where lane.attributes["data-kind"] == "assertion" {
                let record = try #require(records[lane.attributes["data-identifier"] ?? ""], "\(run)")
                #expect(lane.number("begin") == Self.written(record.assertion.createdAt), "\(run)")
                switch record.ending {
                case .ended(let time):
                    #expect(
                        lane.attributes["data-ending"] == "ended" && lane.number("end") == Self.written(time), "\(run)")
                case .endedBySafetyNet(let time):
                    #expect(
                        lane.attributes["data-ending"] == "endedBySafetyNet"
                            && lane.number("end") == Self.written(time),
                        "\(run)")
                case .heldAtTermination:
                    #expect(
                        lane.attributes["data-ending"] == "heldAtTermination" && lane.number("end") == nil, "\(run)")
                case .stillHeld:
                    #expect(lane.attributes["data-ending"] == "stillHeld" && lane.number("end") == nil, "\(run)")
                }
                let handlerMarks = lane.all(withClass: "mark-expirationHandlerCalled").compactMap { $0.number("time") }
                #expect(handlerMarks.first == record.expirationHandlerCalledAt.map(Self.written), "\(run)")
                #expect(lane.attributes["data-call-site"] == record.assertion.callSite?.description, "\(run)")
            }

            let terminations = svg.root.all(withClass: "termination")
            if let termination = simulator.termination {
                #expect(terminations.count == 1, "\(run)")
                #expect(terminations.first?.attributes["data-code"] == termination.code.description, "\(run)")
                #expect(terminations.first?.number("time") == Self.written(termination.time), "\(run)")
                #expect(terminations.first?.attributes["data-reason"] == termination.reason.rawValue, "\(run)")
            } else {
                #expect(terminations.isEmpty, "\(run)")
            }
            let expiries = simulator.events.count { $0 == .backgroundTimeExpired }
            #expect(svg.root.all(withClass: "moment-handlersCalled").count == expiries, "\(run)")
        }
    }

    @Test func theExplainedOverwriteShowsTheLeakedLaneItsLineAndTheBudgetRunningOut() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "property-overwrite"))
        let explanation = try #require(await ScenarioRunner.explain(scenario))
        let timeline = explanation.timeline
        #expect(timeline.title == "property-overwrite — naive")
        #expect(timeline.subtitle == "terminated 0x8badf00d at 30 s (assertionsHeldAfterExpiration)")
        let leaked = try #require(timeline.lanes.first)
        #expect(leaked.ending == .heldAtTermination)
        #expect(leaked.callSite?.hasPrefix("BackgroundTaskScenarios/PropertyOverwriteScenario.swift:") == true)
        #expect(leaked.marks.map(\.kind) == [.expirationHandlerCalled, .expirationHandlerReturned, .heldAfterHandlers])
        #expect(timeline.lanes.dropFirst().allSatisfy { $0.ending == .ended })
        let budget = try #require(timeline.budgets.first)
        #expect(budget.seconds == 30 && budget.handlersCalledAt == 26 && budget.goneAt == 30)
        #expect(
            timeline.termination
                == TimelineTermination(time: 30, code: "0x8badf00d", reason: "assertionsHeldAfterExpiration"))
    }

    @Test func aLockHeldAtSuspensionIsALaneHeldAtTermination() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "lock-at-suspension"))
        let (_, simulator) = await ScenarioRunner.run(try #require(scenario.variant(named: "naive")), of: scenario)
        let timeline = simulator.timeline()
        let lock = try #require(timeline.lanes.first { $0.kind == .fileLock })
        #expect(lock.ending == .heldAtTermination)
        #expect(timeline.termination?.code == "0xdead10cc")
    }

    @Test func underTheDebuggerThePreventedTerminationIsAMoment() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "debugger-run"))
        let (_, simulator) = await ScenarioRunner.run(try #require(scenario.variant(named: "naive")), of: scenario)
        let timeline = simulator.timeline()
        #expect(timeline.termination == nil)
        #expect(timeline.moments.contains { $0.kind == .terminationPrevented && $0.text.contains("0x8badf00d") })
    }
}
