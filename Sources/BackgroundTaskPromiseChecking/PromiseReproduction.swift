import BackgroundTaskKit
import BackgroundTaskSimulation

/// A failing run as a Swift Testing test that compiles as printed (in a test target that imports
/// `BackgroundTaskKitTesting`, `BackgroundTaskDiagnostics`, `Foundation` and `Testing`, and
/// `BackgroundTaskScheduling` when the run launched scheduled tasks) and performs what the checker did, its final
/// phase included.
enum PromiseReproduction {
    static func swiftCode(setup: PromiseSetup, operations: [PromiseOperation], failure: String) -> String {
        var lines = [
            "// \(failure)",
            "/// A scoped task that any thread may end.",
            "final class ReproductionScopedBox: @unchecked Sendable {  // one thread at a time uses it",
            "    var task: ScopedBackgroundTask?",
            "    init(_ task: consuming ScopedBackgroundTask) { self.task = consume task }",
            "}",
            "",
            "/// A task begun on another thread; `returned` once the begin has returned.",
            "final class ReproductionOffMainBegin: @unchecked Sendable {  // `result` is only touched under `lock`",
            "    private let lock = NSLock()",
            "    private var result: (SafeBackgroundTask?, ReproductionScopedBox?)?",
            "    var returned: (SafeBackgroundTask?, ReproductionScopedBox?)? { lock.withLock { result } }",
            "    init(_ begin: @escaping @Sendable () -> (SafeBackgroundTask?, ReproductionScopedBox?)) {",
            "        Thread { [self] in",
            "            let task = begin()",
            "            lock.withLock { result = task }",
            "        }.start()",
            "    }",
            "}",
            "",
            "/// The app's tasks, by slot.",
            "@MainActor final class ReproductionSlots {",
            "    var tasks: [Int: SafeBackgroundTask] = [:]",
            "    var scoped: [Int: ReproductionScopedBox] = [:]",
            "    var pending: [Int: ReproductionOffMainBegin] = [:]",
            "    func isFree(_ slot: Int) -> Bool { tasks[slot] == nil && scoped[slot] == nil && pending[slot] == nil }",
            "    /// Off-main begins that have returned fill their slots (the checker waits for the app's",
            "    /// threads to return or be held before each step).",
            "    func settle() async {",
            "        try? await Task.sleep(nanoseconds: 2_000_000)",
            "        for (slot, begin) in pending {",
            "            guard let (task, box) = begin.returned else { continue }",
            "            pending[slot] = nil",
            "            tasks[slot] = task",
            "            scoped[slot] = box",
            "        }",
            "    }",
            "}",
            "",
        ]
        let scheduler = usesScheduler(operations)
        if scheduler { lines += scheduledHelper }
        lines.append("@MainActor @Test func reproduction() async throws {")
        var body = setup.swiftCode()
        if scheduler { body.append("let scheduled = ReproductionScheduled(simulator)") }
        body.append("let slots = ReproductionSlots()")
        body.append("let appRuns = { simulator.appState == .foreground || simulator.appState == .background }")
        var number = 0
        let offMain = operations.contains { if case .beginOffMain = $0 { true } else { false } }
        for operation in operations {
            if offMain { body.append("await slots.settle()") }
            body.append(contentsOf: code(for: operation, taskNumber: &number))
        }
        body.append("// The checker's final phase: held calls released, everything ended, timers run.")
        body.append(
            "simulator.faults = simulator.faults.filter { if case .holdOffMainCalls = $0 { false } else { true } }")
        body.append("if simulator.appState == .suspended { simulator.enterForeground() }")
        body.append("simulator.releaseHeldCalls()")
        body.append("try await Task.sleep(nanoseconds: 100_000_000)  // ends made on other threads land")
        if offMain { body.append("await slots.settle()") }
        if scheduler {
            body.append("for work in scheduled.works.all { work.finish(success: true) }")
            body.append("for task in scheduled.callbacks.all { task.complete(success: true) }")
            body.append("try await Task.sleep(nanoseconds: 100_000_000)  // the works return")
            body.append("#expect(simulator.runningScheduledTasks.isEmpty)")
            body.append(
                "#expect(!simulator.events.contains { if case .scheduledTaskCompletionIgnored = $0 { true } else { false } })"
            )
        }
        body.append("for task in slots.tasks.values { task.end() }")
        body.append("for box in slots.scoped.values { box.task.take()?.end() }")
        for index in setup.managers.indices { body.append("manager\(index).endAll()") }
        body.append("simulator.advance(by: 15)")
        body.append("#expect(simulator.termination == nil)")
        body.append("#expect(simulator.outstanding.isEmpty)")
        body.append(
            "#expect(!simulator.consoleMessages.contains { if case .cannotEndTask = $0 { true } else { false } })")
        lines += body.map { "    " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func code(for operation: PromiseOperation, taskNumber: inout Int) -> [String] {
        switch operation {
        case .enterBackground: return ["if simulator.appState == .foreground { simulator.enterBackground() }"]
        case .enterForeground:
            return [
                "if simulator.appState == .background || simulator.appState == .suspended { simulator.enterForeground() }"
            ]
        case .resumeInBackground: return ["if simulator.appState == .suspended { simulator.resumeInBackground() }"]
        case .advance(let seconds): return ["if simulator.termination == nil { simulator.advance(by: \(seconds)) }"]
        case .begin(let slot, let face, let cleanup):
            let (task, box) = beginExpressions(face: face, cleanup: cleanup, taskNumber: &taskNumber)
            let store = box.map { "slots.scoped[\(slot)] = \($0)" } ?? "slots.tasks[\(slot)] = \(task)"
            return ["if appRuns(), slots.isFree(\(slot)) { \(store) }"]
        case .beginOffMain(let slot, let face, let cleanup):
            let (task, box) = beginExpressions(face: face, cleanup: cleanup, taskNumber: &taskNumber)
            let begun = box.map { "(nil, \($0))" } ?? "(\(task), nil)"
            return [
                "if appRuns(), slots.isFree(\(slot)) { "
                    + "slots.pending[\(slot)] = ReproductionOffMainBegin { \(begun) } }"
            ]
        case .end(let slot):
            return [
                "if appRuns() { slots.tasks.removeValue(forKey: \(slot))?.end(); "
                    + "slots.scoped.removeValue(forKey: \(slot))?.task.take()?.end() }"
            ]
        case .endTwice(let slot):
            return [
                "if appRuns(), let task = slots.tasks.removeValue(forKey: \(slot)) { task.end(); task.end() }",
                "if appRuns() { slots.scoped.removeValue(forKey: \(slot))?.task.take()?.end() }",
            ]
        case .endOffMain(let slot):
            return [
                "if appRuns(), let task = slots.tasks.removeValue(forKey: \(slot)) { Thread { task.end() }.start() }",
                "if appRuns(), let box = slots.scoped.removeValue(forKey: \(slot)) { "
                    + "Thread { box.task.take()?.end() }.start() }",
            ]
        case .drop(let slot):
            return [
                "if appRuns() { slots.tasks[\(slot)] = nil; slots.scoped[\(slot)] = nil }  // the owner lets go"
            ]
        case .endAll(let manager): return ["if appRuns() { manager\(manager).endAll() }"]
        case .withTask(let diagnosing, let bodyAdvance):
            return [
                "if appRuns() { withBackgroundTask(\"with\", backend: \(diagnosing ? "diagnostics" : "simulator")) "
                    + "{ simulator.advance(by: \(bodyAdvance)) } }"
            ]
        case .withTaskAsync(let diagnosing, let bodyAdvance):
            return [
                "if appRuns() {",
                "    await Task { @MainActor in",
                "        guard appRuns() else { return }",
                "        await withBackgroundTask(\"with async\", backend: \(diagnosing ? "diagnostics" : "simulator")) {",
                "            simulator.advance(by: \(bodyAdvance))",
                "            await Task.yield()",
                "        }",
                "    }.value",
                "}",
            ]
        case .setFaults(let faults):
            return [
                "simulator.faults = [\(faults.map(PromiseOperation.swiftCode(of:)).sorted().joined(separator: ", "))]"
            ]
        case .releaseHeldCalls: return ["if appRuns() { simulator.releaseHeldCalls() }"]
        case .launchScheduled(let callback): return ["scheduled.launch(callback: \(callback))"]
        case .finishScheduled(let success, let callback):
            return ["if appRuns() { scheduled.finish(success: \(success), callback: \(callback)) }"]
        case .dropScheduled: return ["if appRuns() { scheduled.drop() }"]
        case .userStartsUsingDevice: return ["if simulator.termination == nil { simulator.userStartsUsingDevice() }"]
        case .startContinuedJob: return ["scheduled.startContinuedJob()"]
        case .stopContinuedJob: return ["if simulator.termination == nil { scheduled.stopContinuedJob() }"]
        }
    }

    /// Whether the run uses the scheduler, and so needs ``scheduledHelper``.
    private static func usesScheduler(_ operations: [PromiseOperation]) -> Bool {
        operations.contains { operation in
            switch operation {
            case .launchScheduled, .finishScheduled, .dropScheduled, .userStartsUsingDevice, .startContinuedJob,
                .stopContinuedJob:
                true
            default: false
            }
        }
    }

    /// The checker's scheduled tasks (`PromiseScheduledTasks`) as code a test target importing
    /// `BackgroundTaskScheduling` compiles.
    private static let scheduledHelper = [
        "/// An async refresh whose work runs until finished, a callback processing task, continued jobs.",
        "@MainActor final class ReproductionScheduled {",
        "    final class Work: @unchecked Sendable {  // `told` only under `lock`",
        "        private let lock = NSLock()",
        "        private var outcome: Bool?",
        "        var told: Bool? { lock.withLock { outcome } }",
        "        func finish(success: Bool) { lock.withLock { outcome = outcome ?? success } }",
        "    }",
        "    final class Kept<Value>: @unchecked Sendable {  // `values` only under `lock`",
        "        private let lock = NSLock()",
        "        private var values: [Value] = []",
        "        var all: [Value] { lock.withLock { values } }",
        "        func append(_ value: Value) { lock.withLock { values.append(value) } }",
        "        func removeFirst() -> Value? { lock.withLock { values.isEmpty ? nil : values.removeFirst() } }",
        "    }",
        "    struct Failed: Error {}",
        "    let simulator: BackgroundTaskSimulator",
        "    let scheduler: SafeTaskScheduler",
        "    let works = Kept<Work>()",
        "    let callbacks = Kept<SafeScheduledTask>()",
        "    var nextJob = 0",
        "    init(_ simulator: BackgroundTaskSimulator) {",
        "        self.simulator = simulator",
        "        scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)",
        "        let (works, callbacks) = (works, callbacks)",
        "        try? scheduler.register(\"promise.refresh\", windDownLimit: 0.2) {",
        "            let work = Work()",
        "            works.append(work)",
        "            try await Self.run(work)",
        "        }",
        "        try? scheduler.register(\"promise.cleanup\") { task in callbacks.append(task) }",
        "    }",
        "    nonisolated static func run(_ work: Work) async throws {",
        "        while work.told == nil, !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }",
        "        if work.told != true { throw Failed() }",
        "    }",
        "    func launch(callback: Bool) {",
        "        guard simulator.termination == nil else { return }",
        "        let request: ScheduledTaskRequest = callback ? .processing(\"promise.cleanup\") : .appRefresh(\"promise.refresh\")",
        "        guard (try? scheduler.submit(request)) != nil else { return }",
        "        simulator.runScheduledTask(request.identifier)",
        "    }",
        "    func finish(success: Bool, callback: Bool) {",
        "        if callback { callbacks.removeFirst()?.complete(success: success) } else { works.removeFirst()?.finish(success: success) }",
        "    }",
        "    func drop() { _ = callbacks.removeFirst() }",
        "    func startContinuedJob() {",
        "        guard simulator.appState == .foreground, simulator.termination == nil else { return }",
        "        let request = ContinuedProcessingRequest(identifier: \"promise.export.\\(nextJob)\", title: \"Export\", subtitle: \"\")",
        "        nextJob += 1",
        "        let (scheduler, works) = (scheduler, works)",
        "        Task.detached {",
        "            _ = try? await scheduler.runContinuedProcessing(request, windDownLimit: 0.2) { progress in",
        "                progress.update(completed: 1, of: 2)",
        "                let work = Work()",
        "                works.append(work)",
        "                try await Self.run(work)",
        "            }",
        "        }",
        "    }",
        "    func stopContinuedJob() {",
        "        guard let job = simulator.runningScheduledTasks.first(where: { $0.hasPrefix(\"promise.export\") }) else { return }",
        "        simulator.stopContinuedProcessing(job)",
        "    }",
        "}",
        "",
    ]

    /// The expression that begins a task through `face`: a `SafeBackgroundTask?`, or (for the
    /// scoped face) a `ReproductionScopedBox` as the second element.
    private static func beginExpressions(
        face: PromiseOperation.Face,
        cleanup: PromiseOperation.Cleanup,
        taskNumber: inout Int
    ) -> (task: String, box: String?) {
        let number = taskNumber
        taskNumber += 1
        let onExpiration = "onExpiration: { \(code(for: cleanup)) }"
        switch face {
        case .safe(let diagnosing):
            return (
                "SafeBackgroundTask.begin(\"task \(number)\", "
                    + "backend: \(diagnosing ? "diagnostics" : "simulator"), \(onExpiration))", nil
            )
        case .scoped(let diagnosing):
            return (
                "",
                "ReproductionScopedBox(ScopedBackgroundTask(\"task \(number)\", "
                    + "backend: \(diagnosing ? "diagnostics" : "simulator"), \(onExpiration)))"
            )
        case .manager(let index):
            return ("try? manager\(index).beginTask(\"task \(number)\", \(onExpiration))", nil)
        }
    }

    private static func code(for cleanup: PromiseOperation.Cleanup) -> String {
        switch cleanup {
        case .none: ""
        case .spend: "simulator.spend(0.1)"
        case .beginAndEndAnother: "SafeBackgroundTask.begin(\"cleanup\", backend: simulator).end()"
        case .endSlot(let slot):
            "slots.tasks.removeValue(forKey: \(slot))?.end(); slots.scoped.removeValue(forKey: \(slot))?.task.take()?.end()"
        case .endAll(let manager): "manager\(manager).endAll()"
        }
    }
}
