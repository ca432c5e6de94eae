import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

/// Four real threads race every face of the engine (begins, ends, double ends, dropped tasks, `endAll`)
/// while the test fires expiry on the main actor, then check what the system saw: every assertion
/// granted was ended exactly once, and none outlived the expiration handlers that covered it.
///
/// The threads are paced by the test, a batch of operations per step, so that they are always running
/// when the expiry fires and the whole run stays bounded (a few thousand operations).
@Suite(.serialized)
@MainActor
struct EngineStressTests {
    // MARK: - On the simulator

    @Test func everyFaceRacingTheSimulatorsExpiryEndsEachAssertionExactlyOnce() async throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundTimeBudget = 10
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let world = StressWorld(backend: simulator, schedule: { delay, work in simulator.schedule(after: delay, work) })
        world.startWorkers()
        var keepers: [SafeBackgroundTask] = []
        for stint in 0..<8 {
            if stint == 0 { simulator.enterBackground() } else { simulator.resumeInBackground() }
            simulator.faults = stint % 2 == 1 ? [.handlerTwice] : []
            keepers.append(SafeBackgroundTask.begin("Keeps the app awake", backend: simulator))
            world.gate.open()
            var expiring = false
            while !expiring {
                // Begins wait out the step in which the handlers come (4 s before time runs out), so
                // that the app can be suspended after them; ends, drops and `endAll` race it.
                expiring = (simulator.backgroundTimeRemaining ?? 0) <= configuration.expirationLead + 1
                if expiring {
                    world.gate.close()
                    guard await waitUntil("begins in flight to return", { world.gate.isDrained }) else { break }
                }
                guard await world.pacer.grantAndWaitUntilStarted(expiring ? 40 : 12) else { break }
                simulator.advance(by: 1)
                guard await waitUntil("the batch to be taken", { world.pacer.isConsumed }) else { break }
            }
            #expect(simulator.appState == .suspended, "stint \(stint) did not end in suspension")
            if simulator.appState != .suspended { break }
        }
        simulator.enterForeground()
        world.gate.open()
        _ = await world.pacer.grantAndWaitUntilStarted(12)
        await world.stopAndEndEverything()
        simulator.advance(by: 60)

        try simulator.expectEveryAssertionEndedOnce(allowingSafetyNet: true)  // the workers drop tasks
        #expect(simulator.termination == nil)
        let events = simulator.events
        #expect(!simulator.consoleMessages.contains { if case .cannotEndTask = $0 { true } else { false } })
        #expect(!events.contains { if case .misuse = $0 { true } else { false } })
        let begun = events.compactMap { if case .began(let id, _) = $0 { id } else { nil } }
        let ended = events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(ended.count == Set(ended).count)
        #expect(Set(ended) == Set(begun))
        let expiries = Self.assertionsHeldPastExpiry(in: events)
        #expect(expiries.count == 8)
        #expect(expiries.allSatisfy { $0.isEmpty }, "held after the expiry's handlers returned: \(expiries)")
        #expect(keepers.allSatisfy { $0.state == .expired })
        #expect(world.cleanups.total > 0)
    }

    /// For each expiry in the log, the assertions held when it started that were still held when the
    /// app was suspended or terminated after it.
    static func assertionsHeldPastExpiry(in events: [SimulatorEvent]) -> [[Int]] {
        var held = Set<Int>()
        var atExpiry: Set<Int>?
        var result: [[Int]] = []
        for event in events {
            switch event {
            case .began(let id, _): held.insert(id.rawValue)
            case .ended(let id): held.remove(id.rawValue)
            case .backgroundTimeExpired: atExpiry = held
            case .appStateChanged(.suspended), .terminated:
                if let snapshot = atExpiry { result.append(snapshot.intersection(held).sorted()) }
                atExpiry = nil
            default: break
            }
        }
        return result
    }

    // MARK: - On a backend whose handlers the test fires

    @Test func everyFaceRacingHandlersFiredMidFlightEndsEachAssertionExactlyOnce() async throws {
        // The workers drop tasks on purpose: the safety net's reports are captured and checked, not printed.
        let (_, leaks) = try await LeakCapture.capturing(fileID: "BackgroundTaskKitTests/StressWorld.swift") {
            try await raceHandlersFiredMidFlight()
        }
        #expect(!leaks.isEmpty, "the workers drop tasks; the safety net reported none")
        #expect(Set(leaks.map(\.name)).isSubset(of: ["Safe", "Managed"]), "\(Set(leaks.map(\.name)))")
    }

    private func raceHandlersFiredMidFlight() async throws {
        let backend = RecordingBackend()
        let timers = ManualTimers()
        let world = StressWorld(backend: backend, timers: timers)
        world.startWorkers()
        var expiries: [RecordingBackend.Expiry] = []
        for step in 0..<120 {
            let expiring = step % 5 == 4
            if expiring { backend.armExpiry() }
            guard await world.pacer.grantAndWaitUntilStarted(expiring ? 30 : 10) else { break }
            if expiring {
                // The moment: while a begin or an end is in flight on a worker thread (or 50 ms on).
                let deadline = ProcessInfo.processInfo.systemUptime + 0.05
                while !backend.isCallInFlight, ProcessInfo.processInfo.systemUptime < deadline { await Task.yield() }
                expiries.append(backend.fireExpiry(callingEachHandlerTwice: step % 10 == 9))
            }
            timers.advance(by: 0.25)  // ages the shared assertion past its renewal age, ends lingers
            timers.runDue()
            guard await waitUntil("the batch to be taken", { world.pacer.isConsumed }) else { break }
        }
        await world.stopAndEndEverything()
        for _ in 0..<20 {
            timers.advance(by: 1)
            timers.runDue()
        }

        #expect(expiries.count == 24)
        #expect(expiries.contains { !$0.covered.isEmpty } && expiries.contains { !$0.begunByHandlers.isEmpty })
        for expiry in expiries {
            #expect(expiry.stillHeld.isEmpty, "held after the handlers returned: \(expiry)")
        }
        let books = backend.books
        #expect(books.begun.count > 100)
        #expect(books.foreignEnds.isEmpty, "ended but never begun: \(books.foreignEnds)")
        let notOnce = books.begun.filter { books.ends[$0] != 1 }.sorted()
        #expect(notOnce.isEmpty, "not ended exactly once: \(notOnce.map { ($0, books.ends[$0] ?? 0) })")
        #expect(world.cleanups.total > 0)
    }
}
