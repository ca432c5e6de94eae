import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation
import TestSupport
import Testing

/// A simulated app with a tracer installed on its application object.
@MainActor
private struct TracedApp {
    let simulator = BackgroundTaskSimulator()
    let application: SimulatedApplication
    let tracer: BackgroundTaskTracer
    let events = EventLog()

    init(rescue: Bool = false, backtraceDepth: Int = 0) {
        application = SimulatedApplication(simulator: simulator)
        tracer = BackgroundTaskTracer(
            configuration: .init(rescuesHeldAssertions: rescue, backtraceDepth: backtraceDepth), clockOf: simulator)
        application.installTracer(tracer)
        tracer.addObserver { [events] in events.record($0) }
    }

    /// Enters the background and lets the whole budget run out.
    func expire() {
        simulator.enterBackground()
        simulator.advance(by: 31)
    }

    func kinds() -> [BackgroundTaskEvent.Kind] {
        tracer.waitForObservers()
        return events.kinds
    }
}

@MainActor
struct TracerTests {
    @Test func aLeakingThirdPartyBeginIsAttributedToItsCallerAndListedAsHeldAfterHandlers() throws {
        let app = TracedApp()
        _ = LeakySDK.flushQueue(on: app.application)
        CarefulSDK.save(on: app.application)
        app.expire()

        // Without rescue the system terminates the app for the leaked assertion.
        #expect(app.simulator.termination?.code == .watchdogTimeout)
        let held = app.tracer.heldAfterHandlers
        try #require(held.count == 1)
        #expect(held[0].name == "LeakySDK.flush")
        #expect(held[0].caller.function.contains("LeakySDK.flushQueue"))
        #expect(held[0].handlerState == .returned)
        #expect(held[0].beganOnMainThread)

        let leaky = try #require(app.tracer.report().callSites.first { $0.callSite == held[0].caller })
        #expect(leaky.begun == 1 && leaky.heldAfterHandlers == 1 && leaky.outstanding == 1 && leaky.ended == 0)
        let careful = try #require(app.tracer.report().callSites.first { $0.callSite.function.contains("CarefulSDK") })
        #expect(careful.begun == 1 && careful.expired == 1 && careful.heldAfterHandlers == 0)
        #expect(app.kinds().contains(.heldAfterExpirationHandlers))
    }

    @Test func withRescueTheSameAppSurvivesTheExpiryAndTheCulpritIsReported() throws {
        let app = TracedApp(rescue: true)
        let leaked = LeakySDK.flushQueue(on: app.application)
        _ = LeakySDK.uploadWithStaleCapture(on: app.application)
        app.expire()

        #expect(app.simulator.termination == nil)
        #expect(app.simulator.outstanding.isEmpty)
        let report = app.tracer.report()
        #expect(report.callSites.map(\.rescued).reduce(0, +) == 2)
        #expect(report.callSites.map(\.heldAfterHandlers).reduce(0, +) == 2)
        #expect(report.outstandingTasks.isEmpty)
        // Each rescue comes right after its own handler returned, inside the expiry.
        let kinds = app.kinds()
        #expect(kinds.filter { $0 == .rescued }.count == 2)
        let firstExit = try #require(kinds.firstIndex { if case .expirationHandlerExited = $0 { true } else { false } })
        #expect(kinds[firstExit + 1] == .heldAfterExpirationHandlers)
        #expect(kinds[firstExit + 2] == .rescued)

        // The SDK ends its task late: the tracer does not pass that end on, so iOS logs nothing.
        app.application.endBackgroundTask(leaked)
        #expect(
            !app.simulator.consoleMessages.contains {
                $0.text.contains("Can't end") && $0.text.contains("\(leaked.rawValue)")
            })
        let flush = try #require(app.tracer.report().callSites.first { $0.callSite.function.contains("flushQueue") })
        #expect(flush.endedAfterRescue == 1)
        #expect(app.kinds().last == .endedAfterRescue)
    }

    @Test func rescueNeverEndsAnAssertionWhoseHandlerHasNotRun() throws {
        let app = TracedApp(rescue: true)
        let leakedLater = Locked<SimulatedApplication.TaskIdentifier?>(nil)
        let heldWhileFirstHandlerRan = Locked<Bool?>(nil)
        let simulator = app.simulator
        _ = app.application.beginBackgroundTask(withName: "First") {
            // The second assertion's handler has not run yet: it must still be held here.
            let second = leakedLater.withLock { $0 }
            heldWhileFirstHandlerRan.withLock { held in
                held = simulator.outstanding.contains { $0.identifier.rawValue == second?.rawValue }
            }
        }
        let second = LeakySDK.flushQueue(on: app.application)
        leakedLater.withLock { $0 = second }
        app.expire()

        #expect(heldWhileFirstHandlerRan.withLock { $0 } == true)
        #expect(app.simulator.termination == nil)
        #expect(app.tracer.report().callSites.map(\.rescued).reduce(0, +) == 2)
    }

    @Test func theTracerChangesNeitherResultsNorHandlerTiming() {
        func run(traced: Bool) -> [SimulatorLogEntry] {
            let simulator = BackgroundTaskSimulator()
            let application = SimulatedApplication(simulator: simulator)
            if traced { application.installTracer(BackgroundTaskTracer(clockOf: simulator)) }
            let handlerTimes = Locked<[TimeInterval]>([])
            let first = application.beginBackgroundTask(withName: "A") {
                handlerTimes.withLock { $0.append(simulator.now) }
                simulator.spend(1)
            }
            let second = application.beginBackgroundTask(expirationHandler: {
                handlerTimes.withLock { $0.append(simulator.now) }
            })
            simulator.enterBackground()
            simulator.advance(by: 5)
            application.endBackgroundTask(first)
            application.endBackgroundTask(first)  // a double end still reaches the system
            simulator.advance(by: 30)
            application.endBackgroundTask(second)
            return simulator.log
        }
        let plain = run(traced: false)
        let traced = run(traced: true)
        #expect(plain == traced)
        #expect(plain.contains { if case .console = $0.event { true } else { false } })
    }

    @Test func anUnnamedBeginThatReachesTheNamedOneIsCountedOnce() throws {
        let app = TracedApp()
        let identifier = LeakySDK.uploadWithStaleCapture(on: app.application)
        let report = app.tracer.report()
        #expect(report.callSites.count == 1)
        let site = try #require(report.callSites.first)
        #expect(site.begun == 1 && site.unnamed == 1)
        #expect(site.callSite.function.contains("uploadWithStaleCapture"))
        app.application.endBackgroundTask(identifier)
        #expect(app.tracer.report().callSites.first?.ended == 1)
    }

    @Test func thisPackagesOwnBackendIsLeftToItsEngine() throws {
        let app = TracedApp()
        let backend = ApplicationBackend(app.application)
        let task = SafeBackgroundTask.begin("Ours", backend: backend)
        #expect(app.simulator.outstanding.count == 1)
        task.end()
        #expect(app.simulator.outstanding.isEmpty)
        #expect(app.tracer.report().callSites.isEmpty)
    }

    @Test func aDoubleEndIsCountedAndStillPassedOn() throws {
        let app = TracedApp()
        let identifier = LeakySDK.flushQueue(on: app.application)
        app.application.endBackgroundTask(identifier)
        app.application.endBackgroundTask(identifier)
        let site = try #require(app.tracer.report().callSites.first)
        #expect(site.ended == 1 && site.doubleEnds == 1)
        #expect(app.simulator.consoleMessages.contains { $0.text.contains("Can't end") })
        #expect(app.kinds() == [.began, .ended, .endedTwice])
    }

    @Test func anAssertionBegunWithoutAHandlerIsReportedAfterTheOtherHandlers() throws {
        let app = TracedApp()
        _ = LeakySDK.beginWithoutHandler(on: app.application)
        CarefulSDK.save(on: app.application)
        app.expire()
        #expect(app.simulator.termination != nil)
        let held = app.tracer.heldAfterHandlers
        #expect(held.map(\.handlerState) == [.none])
        #expect(held.first?.caller.function.contains("beginWithoutHandler") == true)
    }

    @Test func withRescueAnAssertionBegunWithoutAHandlerIsEndedAtItsExpiry() {
        let app = TracedApp(rescue: true)
        _ = LeakySDK.beginWithoutHandler(on: app.application)
        app.expire()
        #expect(app.simulator.termination == nil)
        #expect(app.tracer.report().callSites.first?.rescued == 1)
    }

    @Test func aHandlerTheSystemRunsBeforeTheBeginReturnsIsRescuedWhenTheBeginReturns() {
        let app = TracedApp(rescue: true)
        app.simulator.enterBackground()
        app.simulator.faults = [.handlerBeforeBeginReturns]
        _ = LeakySDK.flushQueue(on: app.application)
        app.simulator.faults = []
        #expect(app.simulator.outstanding.isEmpty)
        #expect(app.tracer.report().callSites.first?.rescued == 1)
    }

    @Test func aHandlerTheSystemCallsTwiceRunsTwiceAndIsTimedOnce() throws {
        let app = TracedApp(rescue: true)
        let calls = Locked(0)
        let identifier = Locked(SimulatedApplication.TaskIdentifier.invalid)
        app.simulator.faults = [.handlerTwice]
        let begun = app.application.beginBackgroundTask(withName: "Twice") {
            calls.withLock { $0 += 1 }
            app.application.endBackgroundTask(identifier.withLock { $0 })
        }
        identifier.withLock { $0 = begun }
        app.expire()
        #expect(calls.withLock { $0 } == 2)  // passed through every time the system calls it
        #expect(app.simulator.termination == nil)
        let kinds = app.kinds()
        #expect(kinds.filter { $0 == .expirationHandlerEntered }.count == 1)
        #expect(kinds.filter { if case .expirationHandlerExited = $0 { true } else { false } }.count == 1)
        let site = try #require(app.tracer.report().callSites.first)
        #expect(site.expired == 1 && site.rescued == 0 && site.doubleEnds == 1)
    }

    @Test func aHandlerCalledOffTheMainThreadRunsThereAndIsStillRescued() throws {
        let app = TracedApp(rescue: true)
        let ranOnMain = Locked<Bool?>(nil)
        app.simulator.faults = [.handlerOffMainActor]
        _ = app.application.beginBackgroundTask(withName: "Off main") {
            ranOnMain.withLock { $0 = Thread.isMainThread }
        }
        app.expire()
        #expect(ranOnMain.withLock { $0 } == false)
        #expect(app.simulator.termination == nil)
        #expect(app.tracer.report().callSites.first?.rescued == 1)
    }

    @Test func aRefusedBeginWhoseHandlerTheSystemCallsReportsNothingHeld() {
        let app = TracedApp()
        _ = LeakySDK.beginWithoutHandler(on: app.application)  // held, no handler, no expiry
        app.simulator.faults = [.notGranted(callingHandler: true)]
        let refused = LeakySDK.flushQueue(on: app.application)
        app.simulator.faults = []
        #expect(refused == .invalid)
        #expect(app.tracer.heldAfterHandlers.isEmpty)
        #expect(!app.kinds().contains(.heldAfterExpirationHandlers))
        #expect(app.tracer.report().callSites.map(\.heldAfterHandlers).reduce(0, +) == 0)
    }

    @Test func callsAHandlerMakesInsideItsOwnBeginAreTraced() throws {
        let app = TracedApp()
        let earlier = LeakySDK.flushQueue(on: app.application)
        app.simulator.enterBackground()
        app.simulator.faults = [.handlerBeforeBeginReturns]
        _ = app.application.beginBackgroundTask(withName: "Cleanup") {
            app.application.endBackgroundTask(earlier)  // runs inside the begin: still the owner's call
        }
        app.simulator.faults = []
        let flush = try #require(app.tracer.report().callSites.first { $0.callSite.function.contains("flushQueue") })
        #expect(flush.ended == 1 && flush.outstanding == 0)
    }

    @Test func aRefusedBeginIsCountedAsNotGranted() {
        let app = TracedApp()
        app.simulator.faults = [.notGranted(callingHandler: false)]
        let identifier = LeakySDK.flushQueue(on: app.application)
        #expect(identifier == .invalid)
        let site = app.tracer.report().callSites.first
        #expect(site?.begun == 1 && site?.notGranted == 1 && site?.outstanding == 0)
        #expect(app.tracer.heldAssertions.isEmpty)
    }

    @Test func anEndOfAnIdentifierTheTracerNeverSawIsPassedOnUncounted() {
        let app = TracedApp()
        app.application.endBackgroundTask(SimulatedApplication.TaskIdentifier(rawValue: 999))
        #expect(app.tracer.report().callSites.isEmpty)
        #expect(app.simulator.consoleMessages.contains { $0.text.contains("999") })
    }

    @Test func aBacktraceIsKeptOnlyWhenConfigured() throws {
        let plain = TracedApp()
        _ = LeakySDK.flushQueue(on: plain.application)
        #expect(plain.tracer.heldAssertions.first?.backtrace == [])

        let deep = TracedApp(backtraceDepth: 4)
        _ = LeakySDK.flushQueue(on: deep.application)
        let backtrace = try #require(deep.tracer.heldAssertions.first?.backtrace)
        #expect(backtrace.count == 4)
        #expect(backtrace.first?.contains("LeakySDK.flushQueue") == true)
    }

    @Test func theFramesAnInterceptorAddsAreMeasuredFromAKnownCaller() {
        #expect(knownCallerOfAnInterceptorWithOneExtraFrame() == 1)
        #expect(TracedCallStack.interceptorFrames(in: TracedCallStack(addresses: [1, 2]), caller: 0) == 0)
        #expect(
            TracedCallStack.interceptorFrames(in: TracedCallStack(addresses: [10_000, 90_000]), caller: 90_010) == 1)
        #expect(TracedCallStack.interceptorFrames(in: TracedCallStack(addresses: [10_000]), caller: 900_000) == 0)
    }
}

/// An interceptor whose capture runs one frame deeper than the method the caller called, as a block's
/// closure runs inside the block's invoke function.
private enum ExtraFrameInterceptor {
    @inline(never)
    static func intercepted() -> TracedCallStack {
        let stack = inner()
        return withExtendedLifetime(stack) { stack }
    }

    @inline(never)
    static func inner() -> TracedCallStack {
        TracedCallStack.capture(frames: 16)
    }
}

@inline(never)
private func knownCallerOfAnInterceptorWithOneExtraFrame() -> Int {
    let reference = TracedCallStack.returnAddressInCaller()
    let stack = ExtraFrameInterceptor.intercepted()
    return TracedCallStack.interceptorFrames(in: stack, caller: reference)
}
