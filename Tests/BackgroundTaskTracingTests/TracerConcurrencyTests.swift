import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation
import Testing

/// The tracer under real threads racing the system's expiry.
@MainActor
struct TracerConcurrencyTests {
    /// The SDK ends its task on another thread just as time runs out: the end has reached the tracer
    /// but not the system when the SDK's handler returns. The tracer waits for it, so the system sees
    /// it ended inside the handler call, and it does not rescue (which would end it twice).
    @Test func anEndOnItsWayToTheSystemWhenTheHandlerReturnsLandsInsideTheHandlerCall() throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let application = SimulatedApplication(simulator: simulator)
        let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true), clockOf: simulator)
        application.installTracer(tracer)
        let identifier = Locked(SimulatedApplication.TaskIdentifier.invalid)
        let begun = application.beginBackgroundTask(withName: "Sync") {
            let ending = identifier.withLock { $0 }
            Thread.detachNewThread { application.endBackgroundTask(ending) }
            // Return only once the end is held just before the system: in flight.
            let deadline = Date(timeIntervalSinceNow: 5)
            while simulator.heldCallCount == 0, Date() < deadline { usleep(200) }
        }
        identifier.withLock { $0 = begun }
        simulator.enterBackground()
        simulator.advance(by: 31)

        #expect(simulator.termination == nil)
        let events = simulator.events
        let ended = events.filter { $0 == .ended(BackgroundTaskIdentifier(rawValue: begun.rawValue)) }
        #expect(ended.count == 1)
        let endIndex = try #require(events.firstIndex { if case .ended = $0 { true } else { false } })
        let returned = try #require(
            events.firstIndex { if case .expirationHandlerReturned = $0 { true } else { false } })
        #expect(endIndex < returned)
        let site = try #require(tracer.report().callSites.first)
        #expect(site.rescued == 0 && site.heldAfterHandlers == 0 && site.expired == 1)
    }

    /// Real threads end their tasks at random moments around the expiry, while rescue is on: whatever
    /// the order, each assertion reaches the system's end exactly once and the app survives. The handlers
    /// wait up to 10 s here (0.5 s in an app) for an end that has reached the tracer but not the system: under
    /// the thread sanitizer on a loaded machine, a thread can be descheduled longer than 0.5 s, and this test
    /// is about the order of events, not about the machine's scheduling.
    @Test func endsRacingTheExpiryFromOtherThreadsEndEachAssertionOnce() async throws {
        var configuration = BackgroundTaskTracer.Configuration(rescuesHeldAssertions: true)
        configuration.inFlightWaitLimit = 10
        for round in 0..<40 {
            let simulator = BackgroundTaskSimulator()
            let application = SimulatedApplication(simulator: simulator)
            let tracer = BackgroundTaskTracer(configuration: configuration, clockOf: simulator)
            application.installTracer(tracer)
            simulator.enterBackground()
            let identifiers = (0..<4).map { index in
                application.beginBackgroundTask(withName: "Upload \(index)") {}  // leaks unless ended in time
            }
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            for (index, identifier) in identifiers.enumerated() {
                finished.enter()
                Thread.detachNewThread {
                    started.signal()
                    usleep(UInt32((round * 7 + index * 13) % 5) * 150)
                    application.endBackgroundTask(identifier)
                    finished.leave()
                }
            }
            for _ in identifiers { started.wait() }
            simulator.advance(by: 31)
            finished.wait()

            #expect(simulator.termination == nil, "round \(round)")
            for identifier in identifiers {
                let raw = BackgroundTaskIdentifier(rawValue: identifier.rawValue)
                #expect(simulator.events.filter { $0 == .ended(raw) }.count == 1, "round \(round)")
                #expect(!simulator.consoleMessages.contains(.cannotEndTask(raw)), "round \(round)")
            }
            let report = tracer.report()
            #expect(report.outstandingTasks.isEmpty)
            #expect(report.callSites.map(\.begun).reduce(0, +) == 4)
        }
    }

    /// The owner's end starts on another thread just after the handler's wait for calls in flight, before the tracer
    /// decides: the assertion has left the held ones but not reached the system. The handler waits for that end too,
    /// so it lands inside the handler call (before the system looks), and nothing is rescued.
    @Test func anEndStartedJustAfterTheHandlersWaitLandsInsideTheHandlerCall() throws {
        let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true))
        let application = ScriptedApplication(tracer: tracer)
        let wrapped = Locked<[@MainActor @Sendable () -> Void]>([])  // a closure is never a lock's state
        application.duringNextBegin { _, handler in wrapped.withLock { $0 = handler.map { [$0] } ?? [] } }
        let identifier = application.beginBackgroundTask(withName: "Upload", expirationHandler: {})
        let endInFlight = DispatchSemaphore(value: 0)
        let endMayLand = DispatchSemaphore(value: 0)
        application.beforeNextEnd {
            endInFlight.signal()
            endMayLand.wait()
        }
        tracer.afterWaitingForCallsInFlight.withLock { hook in
            hook.run = {
                tracer.afterWaitingForCallsInFlight.withLock { $0.run = nil }  // once
                Thread.detachNewThread { application.endBackgroundTask(identifier) }
                endInFlight.wait()  // the owner's end left the held assertions and is on its way to the system
                Thread.detachNewThread {
                    usleep(50_000)
                    endMayLand.signal()
                }
            }
        }
        let handler = try #require(wrapped.withLock { $0.first })
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ScriptedApplication.call(handler)
            application.log.withLock { $0.append("handler returned") }
            returned.signal()
        }
        returned.wait()

        #expect(application.log.withLock { $0 } == ["begin 1", "end 1", "handler returned"])
        #expect(tracer.report().callSites.first?.rescued == 0)
    }

    /// The system calls the handler on another thread while the begin, made off the main thread, has
    /// not returned the identifier yet. The handler waits for it, so the rescue is made inside the
    /// handler call, before the system looks at what is held.
    @Test func aHandlerCalledWhileItsBeginIsStillRunningRescuesInsideTheHandlerCall() throws {
        let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true))
        let application = ScriptedApplication(tracer: tracer)
        let handlerDone = DispatchSemaphore(value: 0)
        application.duringNextBegin { _, handler in
            Thread.detachNewThread {
                ScriptedApplication.call(handler)
                application.log.withLock { $0.append("handler returned") }
                handlerDone.signal()
            }
            usleep(50_000)  // the begin returns only after the handler's own code is over
        }
        let begun = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = application.beginBackgroundTask(withName: "Late", expirationHandler: {})
            begun.signal()
        }
        begun.wait()
        handlerDone.wait()
        #expect(application.log.withLock { $0 } == ["begin 1", "end 1", "handler returned"])
        #expect(tracer.report().callSites.first?.rescued == 1)
    }

    /// The system calls one handler twice at once. The rescue waits for both calls: the first, still
    /// running, ends the task itself, and nothing is rescued or ended twice.
    @Test func overlappingCallsOfOneHandlerRescueOnlyAfterTheLastReturns() throws {
        let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true))
        let application = ScriptedApplication(tracer: tracer)
        let wrapped = Locked<[@MainActor @Sendable () -> Void]>([])  // a closure is never a lock's state
        application.duringNextBegin { _, handler in wrapped.withLock { $0 = handler.map { [$0] } ?? [] } }
        let firstCallEntered = DispatchSemaphore(value: 0)
        let letFirstCallFinish = DispatchSemaphore(value: 0)
        let calls = Locked(0)
        let identifier = Locked(ScriptedApplication.TaskIdentifier.invalid)
        let begun = application.beginBackgroundTask(withName: "Twice at once") {
            guard
                calls.withLock({ count in
                    count += 1
                    return count == 1
                })
            else { return }
            firstCallEntered.signal()
            letFirstCallFinish.wait()
            application.endBackgroundTask(identifier.withLock { $0 })
        }
        identifier.withLock { $0 = begun }
        let handler = wrapped.withLock { $0.first }
        let firstReturned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ScriptedApplication.call(handler)
            firstReturned.signal()
        }
        firstCallEntered.wait()
        ScriptedApplication.call(handler)  // the second call returns while the first still runs
        #expect(application.log.withLock { $0 } == ["begin 1"])
        letFirstCallFinish.signal()
        firstReturned.wait()
        #expect(application.log.withLock { $0 } == ["begin 1", "end 1"])
        let site = try #require(tracer.report().callSites.first)
        #expect(site.rescued == 0 && site.heldAfterHandlers == 0 && site.endedAfterRescue == 0)
    }
}
