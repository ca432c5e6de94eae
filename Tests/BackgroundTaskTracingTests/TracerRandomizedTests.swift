import BackgroundTaskKitTesting
import BackgroundTaskPromiseChecking
import BackgroundTaskTracing
import Foundation
import Testing

/// What a "third-party SDK" does in one step of a random script.
private enum SDKStep {
    /// Begins a task; its handler does `handler`.
    case begin(named: Bool, handler: HandlerBehaviour)
    /// Ends the `index`-th task begun (modulo), once or twice.
    case end(index: Int, twice: Bool)
    case advance(TimeInterval)
    case enterBackground
    case enterForeground
}

/// What a random SDK task's expiration handler does.
private enum HandlerBehaviour: CaseIterable {
    /// No handler at all.
    case none
    /// Ends its own task.
    case endsOwn
    /// Forgets to end it.
    case leaks
    /// Ends the identifier it captured before the begin returned (`.invalid`).
    case endsStaleCapture
}

/// A random script of SDK calls, the same for every seed on every machine.
private func script(seed: UInt64) -> [SDKStep] {
    var random = PromiseRandom(seed: seed)
    return (0..<Int.random(in: 6...24, using: &random)).map { _ in
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            return .begin(
                named: Bool.random(using: &random), handler: HandlerBehaviour.allCases.randomElement(using: &random)!)
        case 4..<7:
            return .end(index: Int.random(in: 0..<8, using: &random), twice: Int.random(in: 0..<5, using: &random) == 0)
        case 7, 8: return .advance([0.5, 3, 12, 31].randomElement(using: &random)!)
        default: return Bool.random(using: &random) ? .enterBackground : .enterForeground
        }
    }
}

/// Runs `steps` against a fresh simulator's application, with a tracer if `tracer` is given.
@MainActor
private func run(_ steps: [SDKStep], tracer configuration: BackgroundTaskTracer.Configuration?)
    -> BackgroundTaskSimulator
{
    let simulator = BackgroundTaskSimulator()
    let application = SimulatedApplication(simulator: simulator)
    if let configuration {
        application.installTracer(BackgroundTaskTracer(configuration: configuration, clockOf: simulator))
    }
    var begun: [SimulatedApplication.TaskIdentifier] = []
    for step in steps where simulator.termination == nil {
        switch step {
        case .begin(let named, let behaviour):
            let own = Locked(SimulatedApplication.TaskIdentifier.invalid)
            let captured = SimulatedApplication.TaskIdentifier.invalid
            let handler: (@MainActor @Sendable () -> Void)? =
                switch behaviour {
                case .none: nil
                case .endsOwn: { application.endBackgroundTask(own.withLock { $0 }) }
                case .leaks: {}
                case .endsStaleCapture: { application.endBackgroundTask(captured) }
                }
            let identifier = application.beginBackgroundTask(
                withName: named ? "SDK task" : nil, expirationHandler: handler)
            own.withLock { $0 = identifier }
            begun.append(identifier)
        case .end(let index, let twice):
            guard !begun.isEmpty else { continue }
            let identifier = begun[index % begun.count]
            application.endBackgroundTask(identifier)
            if twice { application.endBackgroundTask(identifier) }
        case .advance(let seconds):
            simulator.advance(by: seconds)
        case .enterBackground:
            if simulator.appState == .foreground { simulator.enterBackground() }
        case .enterForeground:
            if simulator.appState != .foreground, simulator.appState != .terminated { simulator.enterForeground() }
        }
    }
    if simulator.termination == nil, simulator.appState == .foreground { simulator.enterBackground() }
    simulator.advance(by: 60)
    return simulator
}

/// The tracer against random scripts of third-party calls: leaks, double ends, stale captures, no
/// handlers, ends before and after the expiry.
@MainActor
struct TracerRandomizedTests {
    /// Watching changes nothing the system sees: the whole event log is the same with and without it.
    @Test func aTracerWithoutRescueIsInvisibleToTheSystem() {
        for seed in UInt64(1)...150 {
            let steps = script(seed: seed)
            let plain = run(steps, tracer: nil).log
            let traced = run(steps, tracer: .init()).log
            #expect(plain == traced, "seed \(seed)")
        }
    }

    /// With rescue, no script gets the app terminated for an assertion held after the expiry, and no
    /// identifier reaches the system's end more often than without the tracer.
    @Test func withRescueNoScriptIsKilledForAHeldAssertion() {
        var killedWithout = 0
        for seed in UInt64(1)...150 {
            let steps = script(seed: seed)
            let plain = run(steps, tracer: nil)
            let rescued = run(steps, tracer: .init(rescuesHeldAssertions: true))
            if plain.termination?.reason == .assertionsHeldAfterExpiration { killedWithout += 1 }
            #expect(rescued.termination?.reason != .assertionsHeldAfterExpiration, "seed \(seed)")
            #expect(rescued.outstanding.isEmpty || rescued.termination != nil, "seed \(seed)")
            let plainCannotEnd = plain.consoleMessages.filter { if case .cannotEndTask = $0 { true } else { false } }
            let rescuedCannotEnd = rescued.consoleMessages.filter {
                if case .cannotEndTask = $0 { true } else { false }
            }
            if plain.termination == nil {
                #expect(rescuedCannotEnd.count <= plainCannotEnd.count, "seed \(seed)")
            }
        }
        // The scripts do get apps killed without the tracer: the test says something.
        #expect(killedWithout >= 30, "only \(killedWithout) of 150 scripts were killed without the tracer")
    }
}
