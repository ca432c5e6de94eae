import BackgroundTaskKit
import Foundation

/// Holds begins and ends made off the main thread for ``SimulatorFault/holdOffMainCalls(_:)``.
///
/// A held call waits on the gate before it reaches the simulated system, until it is released: by
/// the test, after the next expiry's handlers, or by a handler that has been running on the main
/// thread for ``handlerGrace`` (it is waiting for the call). Released calls report when they have
/// landed, so that an expiry can let them land before the system looks at what is still held.
final class CallGate: @unchecked Sendable {  // state only under `condition`
    /// How long a handler on the main thread runs before held calls go on by themselves.
    static let handlerGrace: TimeInterval = 0.05

    private let condition = NSCondition()
    private var nextTicket = 0
    /// Tickets of calls waiting at the gate.
    private var held: [Int] = []
    /// Tickets released but not yet landed.
    private var inFlight: Set<Int> = []
    private var releasedUpTo = -1
    /// When the expiration handlers running now (on any thread) began running, in real time.
    private var handlerRunningSince: Date?
    private var handlersRunning = 0

    /// How many calls are held now.
    var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return held.count
    }

    /// Holds the calling thread until its call is released; returns its ticket, to report landing.
    func hold() -> Int {
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket += 1
        held.append(ticket)
        condition.broadcast()
        while ticket > releasedUpTo {
            if let since = handlerRunningSince, Date().timeIntervalSince(since) >= Self.handlerGrace {
                releaseLocked()
                break
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.005))
        }
        return ticket
    }

    /// The held call `ticket` has reached the system.
    func landed(_ ticket: Int) {
        condition.lock()
        inFlight.remove(ticket)
        condition.broadcast()
        condition.unlock()
    }

    /// Releases every held call.
    func releaseAll() {
        condition.lock()
        releaseLocked()
        condition.unlock()
    }

    /// How many calls have come to the gate so far.
    var ticketsIssued: Int {
        condition.lock()
        defer { condition.unlock() }
        return nextTicket
    }

    /// Whether no call is held, and every released call has landed.
    var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return held.isEmpty && inFlight.isEmpty
    }

    /// Whether every released call has landed.
    var allLanded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return inFlight.isEmpty
    }

    /// An expiration handler started (`true`) or returned (`false`), on any thread.
    func handlerRunning(_ running: Bool) {
        condition.lock()
        handlersRunning += running ? 1 : -1
        if running, handlersRunning == 1 { handlerRunningSince = Date() }
        if handlersRunning == 0 { handlerRunningSince = nil }
        condition.broadcast()
        condition.unlock()
    }

    private func releaseLocked() {
        inFlight.formUnion(held)
        held.removeAll()
        releasedUpTo = nextTicket - 1
        condition.broadcast()
    }
}
