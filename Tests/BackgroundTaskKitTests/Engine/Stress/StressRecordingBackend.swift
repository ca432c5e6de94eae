import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

// MARK: - The recording backend

/// `UnlimitedBackend` with books: every begin and end per identifier, and the stored expiration
/// handlers, which ``fireExpiry(callingEachHandlerTwice:)`` calls the way the system does. Begins and ends now and then pause
/// inside the call, to widen the windows in which a handler meets a call in flight.
final class RecordingBackend: BackgroundTaskBackend {
    struct Books {
        var begun: Set<Int> = []
        var ends: [Int: Int] = [:]
        var foreignEnds: [Int] = []
        /// Held assertions and their handlers.
        var held: [Int: @MainActor @Sendable () -> Void] = [:]
        var handlerCalled: Set<Int> = []
        var calls = 0
        /// Begun on the main actor while ``fireExpiry(callingEachHandlerTwice:)`` runs, or `nil`.
        var begunByHandlers: [Int]?
    }

    /// One fired expiry: the assertions held when it started, those the handlers began (their
    /// cleanups begin and end tasks), and those of both still held after the handlers returned.
    struct Expiry {
        var covered: [Int]
        var begunByHandlers: [Int]
        var stillHeld: [Int]
    }

    private let system = UnlimitedBackend()
    private let state = Locked(Books())
    private let paused = Locked((count: 0, armed: false))

    var books: Books { state.withLock { $0 } }
    /// Whether a begin or an end is paused inside the call now.
    var isCallInFlight: Bool { paused.withLock { $0.count > 0 } }

    /// Lengthens the pauses until the next expiry has fired.
    func armExpiry() {
        paused.withLock { $0.armed = true }
    }

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        guard let identifier = system.beginBackgroundTask(named: name, expirationHandler: expirationHandler) else {
            return nil
        }
        let call = state.withLock { books in
            books.begun.insert(identifier.rawValue)
            books.held[identifier.rawValue] = expirationHandler ?? {}
            if MainActorContext.isCurrent { books.begunByHandlers?.append(identifier.rawValue) }
            books.calls += 1
            return books.calls
        }
        pause(call)  // granted, but the engine does not know the identifier yet
        return identifier
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        pause(
            state.withLock { books in
                books.calls += 1
                return books.calls
            })
        system.endBackgroundTask(identifier)
        state.withLock { books in
            if books.begun.contains(identifier.rawValue) {
                books.ends[identifier.rawValue, default: 0] += 1
                books.held[identifier.rawValue] = nil
            } else {
                books.foreignEnds.append(identifier.rawValue)
            }
        }
    }

    var backgroundTimeRemaining: TimeInterval? { system.backgroundTimeRemaining }

    /// Time runs out: calls the handler of every assertion held now, in begin order, on the main actor
    /// (twice in a row, as some devices do, with `callingEachHandlerTwice`), skipping those ended
    /// meanwhile and those whose handler was called before.
    @MainActor func fireExpiry(callingEachHandlerTwice twice: Bool) -> Expiry {
        let covered = state.withLock { books in
            books.begunByHandlers = []
            return books.held.keys.filter { !books.handlerCalled.contains($0) }.sorted()
        }
        for identifier in covered {
            let handler = state.withLock { books -> (@MainActor @Sendable () -> Void)? in
                guard let handler = books.held[identifier] else { return nil }
                books.handlerCalled.insert(identifier)
                return handler
            }
            handler?()
            if twice { handler?() }
        }
        let expiry = state.withLock { books in
            let begun = books.begunByHandlers ?? []
            books.begunByHandlers = nil
            return Expiry(
                covered: covered, begunByHandlers: begun,
                stillHeld: (covered + begun).filter { books.held[$0] != nil })
        }
        paused.withLock { $0.armed = false }
        return expiry
    }

    /// Every third call off the main actor pauses inside the call, granted (or about to end) but not
    /// returned: for 2 ms while an expiry is armed, so that handlers meet it in flight, 0.05 ms
    /// otherwise.
    private func pause(_ call: Int) {
        guard call % 3 == 0, !MainActorContext.isCurrent else { return }
        let armed = paused.withLock { paused in
            paused.count += 1
            return paused.armed
        }
        Thread.sleep(forTimeInterval: armed ? 0.002 : 0.000_05)
        paused.withLock { $0.count -= 1 }
    }
}

/// The managers' timers and clock, moved by the test.
final class ManualTimers: Sendable {
    private struct Timer {
        let due: TimeInterval
        let work: @Sendable () -> Void
    }

    private let state = Locked((now: 0.0, pending: [Timer]()))

    var now: TimeInterval { state.withLock { $0.now } }

    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let timer = Timer(due: state.now + max(delay, 0), work: work)
            state.pending.append(timer)
        }
    }

    func advance(by seconds: TimeInterval) {
        state.withLock { $0.now += seconds }
    }

    /// Runs, outside the lock, the timers that are due.
    func runDue() {
        let due = state.withLock { state in
            let due = state.pending.filter { $0.due <= state.now }
            state.pending.removeAll { $0.due <= state.now }
            return due
        }
        for timer in due { timer.work() }
    }
}
