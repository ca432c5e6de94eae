import Foundation

/// A ``TaskEngine``'s own mutable state, in one value that only ``TaskEngine/withLock(at:_:)`` hands out.
package struct EngineState {
    /// A manager's tasks in begin order: running ones, and per-task assertions being begun or ended (an expiry must
    /// claim them); walked by expiry, `endAll()`, coalescing, reports. Standalone: none (one task per expiry).
    package var tasks = TaskList()
    var runningCount = 0  // a manager's running tasks: what its cap counts
    var nextNumber: UInt64 = 1
    var shared: SharedAssertion? {  // coalescing: the assertion tasks use (or will, once granted)
        didSet { renewalDue = shared.map { $0.beganAt + (renewalAge ?? .infinity) } ?? .infinity }
    }
    var renewalDue = TimeInterval.infinity  // coalescing: before this time, no renewal (one comparison)
    // Coalescing: `renewal` is a fresh assertion being begun to take over from `shared`; `retiring`, older ones whose
    // end is in flight; `sharedUsers`, the running tasks using `shared`; then whether a timer is pending.
    var renewal: SharedAssertion?
    var retiring: [SharedAssertion] = []
    var sharedUsers = 0
    var lingerTimerPending = false
    var renewalTimerPending = false
    var expiriesInProgress = 0  // expiries whose cleanups and ends run: nothing lingers past them
    var inBackground: Bool?  // as last reported; `nil` while unknown (taken as the background: the safe side)
    var stateObservation: ApplicationStateObservation?  // while holding assertions only in the background
    let renewalAge: TimeInterval?  // coalescing: the age at which the shared assertion is renewed; `nil`: never

    init(renewalAge: TimeInterval?) {
        self.renewalAge = renewalAge
    }
}
