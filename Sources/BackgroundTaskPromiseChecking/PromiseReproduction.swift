import BackgroundTaskKit
import BackgroundTaskSimulation

/// A failing run as a Swift Testing test that a developer can paste and debug.
enum PromiseReproduction {
    static func swiftCode(setup: PromiseSetup, operations: [PromiseOperation], failure: String) -> String {
        var lines = [
            "// \(failure)",
            "@MainActor @Test func reproduction() async throws {",
        ]
        var body = setup.swiftCode()
        body.append("var tasks: [Int: SafeBackgroundTask] = [:]")
        body.append("var scoped: [Int: ScopedBox] = [:]  // final class ScopedBox { var task: ScopedBackgroundTask? }")
        var number = 0
        for operation in operations {
            body.append(contentsOf: code(for: operation, taskNumber: &number))
        }
        body.append("// … then end everything, advance 15 s, and check each assertion was ended exactly once.")
        body.append("try simulator.expectNoLeaks()")
        lines += body.map { "    " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func code(for operation: PromiseOperation, taskNumber: inout Int) -> [String] {
        switch operation {
        case .enterBackground: return ["if simulator.appState == .foreground { simulator.enterBackground() }"]
        case .enterForeground: return ["if simulator.appState != .foreground { simulator.enterForeground() }"]
        case .resumeInBackground: return ["if simulator.appState == .suspended { simulator.resumeInBackground() }"]
        case .advance(let seconds): return ["simulator.advance(by: \(seconds))"]
        case .begin(let slot, let face, let cleanup):
            let number = taskNumber
            taskNumber += 1
            let onExpiration = "onExpiration: { \(code(for: cleanup)) }"
            switch face {
            case .safe(let diagnosing):
                return [
                    "tasks[\(slot)] = tasks[\(slot)] ?? SafeBackgroundTask.begin(\"task \(number)\", "
                        + "backend: \(diagnosing ? "diagnostics" : "simulator"), \(onExpiration))"
                ]
            case .scoped(let diagnosing):
                return [
                    "scoped[\(slot)] = scoped[\(slot)] ?? ScopedBox(ScopedBackgroundTask(\"task \(number)\", "
                        + "backend: \(diagnosing ? "diagnostics" : "simulator"), \(onExpiration)))"
                ]
            case .manager(let index):
                return [
                    "tasks[\(slot)] = tasks[\(slot)] ?? (try? manager\(index).beginTask(\"task \(number)\", \(onExpiration)))"
                ]
            }
        case .end(let slot):
            return [
                "tasks.removeValue(forKey: \(slot))?.end(); scoped.removeValue(forKey: \(slot))?.task.take()?.end()"
            ]
        case .endTwice(let slot):
            return [
                "if let task = tasks.removeValue(forKey: \(slot)) { task.end(); task.end() }",
                "scoped.removeValue(forKey: \(slot))?.task.take()?.end()",
            ]
        case .endOffMain(let slot):
            return [
                "if let task = tasks.removeValue(forKey: \(slot)) { Thread { task.end() }.start() }",
                "if let box = scoped.removeValue(forKey: \(slot)) { Thread { box.task.take()?.end() }.start() }",
            ]
        case .drop(let slot):
            return ["tasks[\(slot)] = nil; scoped[\(slot)] = nil  // the owner lets go"]
        case .endAll(let manager): return ["manager\(manager).endAll()"]
        case .withTask(let diagnosing, let bodyAdvance):
            return [
                "withBackgroundTask(\"with\", backend: \(diagnosing ? "diagnostics" : "simulator")) "
                    + "{ simulator.advance(by: \(bodyAdvance)) }"
            ]
        case .withTaskAsync(let diagnosing, let bodyAdvance):
            return [
                "await withBackgroundTask(\"with async\", backend: \(diagnosing ? "diagnostics" : "simulator")) "
                    + "{ simulator.advance(by: \(bodyAdvance)); await Task.yield() }"
            ]
        case .setFaults(let faults):
            return [
                "simulator.faults = [\(faults.map(PromiseOperation.swiftCode(of:)).sorted().joined(separator: ", "))]"
            ]
        case .releaseHeldCalls: return ["simulator.releaseHeldCalls()"]
        }
    }

    private static func code(for cleanup: PromiseOperation.Cleanup) -> String {
        switch cleanup {
        case .none: ""
        case .spend: "simulator.spend(0.1)"
        case .beginAndEndAnother: "SafeBackgroundTask.begin(\"cleanup\", backend: simulator).end()"
        case .endSlot(let slot): "tasks.removeValue(forKey: \(slot))?.end()"
        case .endAll(let manager): "manager\(manager).endAll()"
        }
    }
}
