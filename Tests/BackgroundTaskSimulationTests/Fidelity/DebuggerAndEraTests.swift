import BackgroundTaskKitTesting
import Foundation
import Testing

/// Under the debugger the watchdog never kills and the app is never suspended, while the handlers
/// and the warnings still come; older iOS versions gave more time and no 30-second warning.
@MainActor
struct DebuggerAndEraTests {
    @Test func underTheDebuggerALeakWarnsButTheAppLivesOn() throws {
        var configuration = SimulatorConfiguration()
        configuration.debuggerAttached = true
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let backend: any BackgroundTaskBackend = simulator
        var handlerCalls = 0
        simulator.enterBackground()
        _ = backend.beginBackgroundTask(named: "Leaky upload") { handlerCalls += 1 }  // never ends
        simulator.advance(by: 120)
        #expect(simulator.termination == nil)
        #expect(simulator.appState == .background)
        #expect(handlerCalls == 1)
        let prevented = simulator.events.compactMap { event -> SimulatedTermination? in
            if case .terminationPreventedByDebugger(let termination) = event { termination } else { nil }
        }
        #expect(prevented.map(\.code) == [.watchdogTimeout])
        #expect(prevented.first?.time == 30)
        #expect(
            simulator.consoleMessages.contains { if case .taskCreatedTooLongAgo = $0 { true } else { false } }
        )
        #expect(
            simulator.consoleMessages.contains {
                if case .taskNotEndedAfterExpirationHandlers = $0 { true } else { false }
            }
        )
    }

    @Test func theSameLeakOnADeviceIsKilled() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        _ = backend.beginBackgroundTask(named: "Leaky upload") {}
        simulator.advance(by: 120)
        try simulator.expectTermination(.watchdogTimeout, at: 30)
    }

    @Test func underTheDebuggerSlowHandlersAreNotKilledEither() throws {
        var configuration = SimulatorConfiguration()
        configuration.debuggerAttached = true
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let task = SafeBackgroundTask.begin("Slow", backend: simulator, onExpiration: { simulator.spend(8) })
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
        #expect(task.state == .expired)
        #expect(simulator.events.contains { if case .terminationPreventedByDebugger = $0 { true } else { false } })
        try simulator.expectNoLeaks()
    }

    @Test func anIdleAppUnderTheDebuggerIsNotSuspended() {
        var configuration = SimulatorConfiguration()
        configuration.debuggerAttached = true
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        simulator.enterBackground()
        simulator.advance(by: 10)
        #expect(simulator.appState == .background)
    }

    @Test func iOS7Through12GiveThreeMinutesAndNoThirtySecondWarning() throws {
        let simulator = BackgroundTaskSimulator(configuration: .iOS7Through12)
        let task = SafeBackgroundTask.begin("Long export", backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 100)
        #expect(task.state == .running)
        simulator.advance(by: 100)
        #expect(task.state == .expired)
        #expect(simulator.log.first { $0.event == .backgroundTimeExpired }?.time == 176)
        #expect(simulator.consoleMessages.isEmpty)
        try simulator.expectNoLeaks()
    }

    @Test func beforeIOS7TheBudgetWasTenMinutes() {
        let simulator = BackgroundTaskSimulator(configuration: .iOS6)
        let task = SafeBackgroundTask.begin("Long export", backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 595)
        #expect(task.state == .running)
        simulator.advance(by: 2)
        #expect(task.state == .expired)
        #expect(simulator.consoleMessages.isEmpty)
    }

    @Test func iOS13BeforeThePointFourReleaseGaveThirtySecondsWithoutTheWarning() {
        let simulator = BackgroundTaskSimulator(configuration: .iOS13Through13Point3)
        let task = SafeBackgroundTask.begin("Foreground upload", backend: simulator)
        simulator.advance(by: 45)
        #expect(simulator.consoleMessages.isEmpty)
        task.end()
        #expect(SimulatorConfiguration.current == SimulatorConfiguration())
    }

    @Test func endingTheInvalidIdentifierPrintsIOSsMessageForIdentifierZero() {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 0))
        #expect(
            simulator.consoleMessages.map(\.text) == [
                "Can't end BackgroundTask: no background task exists with identifier 0 (0x0), or it may have "
                    + "already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
            ]
        )
        #expect(simulator.termination == nil)
    }
}
