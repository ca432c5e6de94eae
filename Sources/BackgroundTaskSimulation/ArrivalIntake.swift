import BackgroundTaskKit
import Foundation

/// Counts the work from the app's other threads that one driving call takes on the main thread, so that threads that
/// never stop sending cannot hold the call, and the test, for ever.
///
/// Before ``BackgroundTaskSimulator/advance(by:)-(TimeInterval)`` moves the clock, it runs what other threads sent to
/// the main thread: work hopped to the main actor (``MainThreadPump``), expiration handlers due for their begins, and
/// their calls held at the gate of ``SimulatorFault/holdOffMainCalls(_:)``. A device's threads stop sending in
/// microseconds; a test's may not. So one call (with the calls nested in it) takes that work piece by piece, in order,
/// up to a number of pieces and a span of real time from its start (a piece can take long: a handler that waits for a
/// held call). The first piece it has to refuse is noted here, the call returns, and that piece waits for the next
/// call or the main queue's turn. Outside a driving call everything is taken.
final class ArrivalIntake: Sendable {
    private struct State {
        /// Driving calls open now: a call nested in another (an `advance` in work the pump runs) shares its count.
        var depth = 0
        var left = 0
        var taken = 0
        /// When the outermost call stops taking work, in `ProcessInfo.systemUptime` seconds.
        var deadline: TimeInterval = 0
        /// The first work refused since the outermost call opened.
        var refused: SimulatorMisuse.ArrivingWork?
    }

    private let state = Locked(State())

    /// A driving call starts: unless one is open already, it may take `limit` pieces of arriving work within
    /// `realTimeLimit` seconds.
    func open(limit: Int, realTimeLimit: TimeInterval) {
        let now = ProcessInfo.processInfo.systemUptime
        state.withLock { state in
            state.depth += 1
            guard state.depth == 1 else { return }
            state.left = max(limit, 0)
            state.taken = 0
            state.deadline = now + (realTimeLimit.isNaN ? 0 : realTimeLimit)
            state.refused = nil
        }
    }

    /// A driving call returns. Returns, for the outermost call, what it refused and how many pieces it had taken
    /// (`nil`: it refused nothing).
    func close() -> (taken: Int, work: SimulatorMisuse.ArrivingWork)? {
        state.withLock { state in
            state.depth = max(state.depth - 1, 0)
            guard state.depth == 0, let refused = state.refused else { return nil }
            state.refused = nil
            return (state.taken, refused)
        }
    }

    /// Takes at most `wanted` pieces of `work` that are waiting, in order; returns how many may run now. Fewer than
    /// `wanted` means the limit is reached: the call that is open stops.
    func take(upTo wanted: Int, of work: SimulatorMisuse.ArrivingWork) -> Int {
        guard wanted > 0 else { return 0 }
        let now = ProcessInfo.processInfo.systemUptime
        return state.withLock { state in
            guard state.depth > 0 else { return wanted }
            if now >= state.deadline { state.left = 0 }
            let taken = min(wanted, state.left)
            state.left -= taken
            state.taken += taken
            if taken < wanted, state.refused == nil { state.refused = work }
            return taken
        }
    }

    /// Whether the call that is open has refused work: it stops as soon as it can.
    var isExhausted: Bool {
        state.withLock { $0.refused != nil }
    }
}
