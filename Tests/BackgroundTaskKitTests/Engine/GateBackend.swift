import BackgroundTaskKitTesting
import Dispatch
import Foundation

/// A backend that plays the system and lets a test stop a call on its way in: it records every
/// assertion it grants and every end that reaches it, keeps the expiration handlers, and can hold a
/// begin or an end (on whatever thread made it) until the test releases it, so that a test can put
/// the system's expiry exactly between two steps of the engine.
final class GateBackend: BackgroundTaskBackend, @unchecked Sendable {  // all state behind `state`
    private struct State {
        var next = 1
        var handlers: [Int: @MainActor @Sendable () -> Void] = [:]
        var held: Set<Int> = []
        var ends: [Int: Int] = [:]
        var begins = 0
        var holdNextEnd = false
        var holdBegins: Set<Int> = []
        var beginDelay: [Int: Double] = [:]
    }

    private let state = Locked(State())
    /// Signalled when a held call has entered the backend.
    let callEntered = DispatchSemaphore(value: 0)
    /// Signal to let a held call through.
    let release = DispatchSemaphore(value: 0)

    /// The next end is held before it reaches the "system".
    func holdNextEnd() { state.withLock { $0.holdNextEnd = true } }

    /// The `number`th begin (1-based) is held after the system recorded it and its handler, before it
    /// returns the identifier.
    func holdBegin(_ number: Int) { state.withLock { _ = $0.holdBegins.insert(number) } }

    /// The `number`th begin returns `seconds` late (after the system recorded it and its handler).
    func delayBegin(_ number: Int, by seconds: Double) { state.withLock { $0.beginDelay[number] = seconds } }

    /// Assertions the system holds now.
    var held: Set<Int> { state.withLock { $0.held } }
    /// How many times each identifier was ended (ends of identifiers never granted included).
    var ends: [Int: Int] { state.withLock { $0.ends } }
    /// How many begins reached the system.
    var begins: Int { state.withLock { $0.begins } }

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let (identifier, hold, delay) = state.withLock { state in
            state.begins += 1
            let identifier = state.next
            state.next += 1
            state.held.insert(identifier)
            state.handlers[identifier] = expirationHandler
            return (identifier, state.holdBegins.remove(state.begins) != nil, state.beginDelay[state.begins])
        }
        if hold {
            callEntered.signal()
            release.wait()
        }
        if let delay { Thread.sleep(forTimeInterval: delay) }
        return BackgroundTaskIdentifier(rawValue: identifier)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        let hold = state.withLock { state in
            defer { state.holdNextEnd = false }
            return state.holdNextEnd
        }
        if hold {
            callEntered.signal()
            release.wait()
        }
        state.withLock { state in
            state.ends[identifier.rawValue, default: 0] += 1
            state.held.remove(identifier.rawValue)
        }
    }

    var backgroundTimeRemaining: TimeInterval? { nil }

    /// Calls the handlers of every assertion held now, in begin order, on the main actor, as the
    /// system does at expiry; returns the assertions of that set still held when each handler
    /// returned.
    @MainActor
    func expire() -> [Set<Int>] {
        let calls = state.withLock { state in
            state.held.sorted().compactMap { identifier in state.handlers[identifier].map { (identifier, $0) } }
        }
        let covered = Set(calls.map(\.0))
        return calls.map { _, handler in
            handler()
            return held.intersection(covered)
        }
    }

    /// Lets a held call through after `seconds`, from a thread of its own (never a dispatch worker,
    /// which may all be busy waiting).
    func release(after seconds: Double) {
        Thread {
            Thread.sleep(forTimeInterval: seconds)
            self.release.signal()
        }.start()
    }
}
