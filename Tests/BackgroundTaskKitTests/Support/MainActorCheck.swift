import BackgroundTaskKit
import Dispatch
import Foundation

/// Whether the caller runs where the main actor runs, checked independently of the library.
///
/// On Linux the test runner calls `dispatch_main()`, so the main actor runs on whichever thread drains
/// the main queue, not on the main thread; a value set on the main queue is visible exactly there.
func isOnMainActorThread() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMarker.value) == true
}

// Boxed: not every SDK declares `DispatchSpecificKey` Sendable.
private let mainQueueMarker: UncheckedSendableBox<DispatchSpecificKey<Bool>> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return UncheckedSendableBox(key)
}()
