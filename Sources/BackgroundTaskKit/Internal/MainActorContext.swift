import Dispatch
import Foundation

/// Tells, without trapping, whether the caller runs on the main actor.
///
/// `Thread.isMainThread` is not enough: on Linux the main actor's work runs on the main dispatch
/// queue, which a worker thread drains while the main thread is parked in `dispatchMain()` (as under
/// Swift Testing). So the check is "the main thread, or a block of the main queue", which matches
/// the main actor on Apple platforms and on Linux alike.
package enum MainActorContext {
    private static let key = DispatchSpecificKey<UInt8>()

    private static let keyInstalled: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()

    /// Whether code may assume main-actor isolation here (`MainActor.assumeIsolated` succeeds).
    package static var isCurrent: Bool {
        if Thread.isMainThread { return true }
        _ = keyInstalled
        return DispatchQueue.getSpecific(key: key) != nil
    }
}
