import BackgroundTaskKitTesting
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
    /// the order, each assertion reaches the system's end exactly once and the app survives.
    @Test func endsRacingTheExpiryFromOtherThreadsEndEachAssertionOnce() async throws {
        for round in 0..<40 {
            let simulator = BackgroundTaskSimulator()
            let application = SimulatedApplication(simulator: simulator)
            let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true), clockOf: simulator)
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
}
