import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// A suspended app's threads are frozen: a begin or end a queue makes as the app is suspended reaches
/// the system when the app runs again, as on a device, instead of being recorded as misuse.
@MainActor
struct FrozenThreadTests {
    /// Runs `work` on a thread of its own; its result is `value` once it returns.
    final class ThreadResult<Value: Sendable>: @unchecked Sendable {  // written once, under `lock`
        private let lock = NSLock()
        private var stored: Value?

        var value: Value? { lock.withLock { stored } }

        init(_ work: @escaping @Sendable () -> Value) {
            Thread { [self] in
                let value = work()
                lock.withLock { stored = value }
            }
            .start()
        }
    }

    /// A flag any thread may set.
    final class Flag: @unchecked Sendable {  // `value` is only touched under `lock`
        private let lock = NSLock()
        private var value = false

        var isSet: Bool { lock.withLock { value } }

        func set() { lock.withLock { value = true } }
    }

    private func suspendedSimulator() -> BackgroundTaskSimulator {
        let simulator = BackgroundTaskSimulator()
        // A frozen thread waits this long for the app to run again: longer than the waits below, so that a main actor
        // kept busy by other tests for a while cannot make the thread give up before the test has looked.
        simulator.offMainHandlerTimeout = 60
        simulator.enterBackground()
        simulator.advance(by: 1)
        return simulator
    }

    @Test func aQueuesBeginWhileSuspendedLandsWhenTheAppRunsAgain() async throws {
        let simulator = suspendedSimulator()
        #expect(simulator.appState == .suspended)
        let begin = ThreadResult { [simulator] in
            simulator.beginBackgroundTask(named: "Frozen", expirationHandler: nil)
        }
        #expect(await waitUntil("the thread is frozen") { !simulator.parkedThreadIDs.isEmpty })
        #expect(begin.value == nil)
        #expect(!simulator.events.contains(.began(BackgroundTaskIdentifier(rawValue: 1), name: "Frozen")))
        simulator.resumeInBackground()
        #expect(await waitUntil("the begin returns") { begin.value != nil })
        #expect(begin.value == .some(BackgroundTaskIdentifier(rawValue: 1)))
        #expect(simulator.events.contains(.began(BackgroundTaskIdentifier(rawValue: 1), name: "Frozen")))
        #expect(!simulator.events.contains { if case .misuse = $0 { true } else { false } })
        #expect(simulator.parkedThreadIDs.isEmpty)
    }

    @Test func aFrozenEndGoesOnOnceTheAppIsBackInTheForeground() async throws {
        let simulator = suspendedSimulator()
        let end = ThreadResult { [simulator] in
            simulator.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 7))
            return true
        }
        #expect(await waitUntil("the thread is frozen") { !simulator.parkedThreadIDs.isEmpty })
        #expect(simulator.consoleMessages.isEmpty)
        simulator.enterForeground()
        #expect(await waitUntil("the end returns") { end.value != nil })
        // It reached the system once the app ran: an unknown identifier gets iOS's message then.
        #expect(simulator.consoleMessages == [.cannotEndTask(BackgroundTaskIdentifier(rawValue: 7))])
        #expect(!simulator.events.contains { if case .misuse = $0 { true } else { false } })
    }

    @Test func aThreadFrozenForeverIsRecordedAsMisuseAfterTheTimeout() async throws {
        let simulator = suspendedSimulator()
        simulator.offMainHandlerTimeout = 0.05
        let begin = ThreadResult { [simulator] in
            simulator.beginBackgroundTask(named: "Never resumed", expirationHandler: nil) == nil
        }
        #expect(await waitUntil("the begin returns") { begin.value != nil })
        #expect(begin.value == true)
        #expect(simulator.events.last == .misuse(.callWhileSuspended))
    }

    @Test func aMainThreadCallWhileSuspendedIsStillMisuse() {
        let simulator = suspendedSimulator()
        #expect(simulator.beginBackgroundTask(named: "Main", expirationHandler: nil) == nil)
        #expect(simulator.events.last == .misuse(.callWhileSuspended))
        #expect(simulator.parkedThreadIDs.isEmpty)
    }
}

extension FrozenThreadTests {
    /// A suspended app's main thread runs nothing: work a handler sent to the main actor through the
    /// package waits until the app runs again.
    @Test func workSentToTheMainActorWhileSuspendedRunsWhenTheAppRunsAgain() async throws {
        let simulator = suspendedSimulator()
        let hop = try #require(simulator.engineHooks?.mainActorHop)
        let ran = Flag()
        hop { ran.set() }
        try await Task.sleep(nanoseconds: 20_000_000)  // the main queue has had its turn
        #expect(!ran.isSet)
        simulator.enterForeground()
        #expect(ran.isSet)
    }
}
