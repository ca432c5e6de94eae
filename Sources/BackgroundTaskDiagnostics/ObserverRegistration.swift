@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Dispatch
import Foundation

/// One registered observer and the serial queue that delivers to it.
///
/// Events are buffered and delivered in batches: an operation adds its events to the buffer and
/// schedules a delivery only when none is pending, a millisecond later, so a stream of begins and
/// ends costs one queue hop per millisecond instead of one per event. Order is kept: one buffer,
/// drained in order, on one serial queue. ``waitUntilDelivered()`` delivers at once.
///
/// The buffer is guarded by the lock of the ledger's owner, which every ``enqueue(_:for:number:time:)``
/// already holds, so an event costs no lock round trip of its own; and it holds events in a compact
/// form (the kind, the ledger entry, its number and the time), made into ``BackgroundTaskEvent``
/// values on the observer's queue, off the operation's path.
package final class ObserverRegistration: @unchecked Sendable {  // the buffer is only touched under `ownerLock`
    /// An event waiting for delivery: the entry's name and call site never change, so they are read
    /// when the event is delivered.
    private struct PendingEvent {
        let kind: BackgroundTaskEvent.Kind
        let entry: TaskListEntry
        let number: UInt64
        let time: TimeInterval
    }

    let observer: any BackgroundTaskObserver
    let queue: DispatchQueue
    /// The lock of the engine or backend whose ledger this registration belongs to.
    private let ownerLock: EngineLock
    /// The ledger's owner, for the events' task IDs.
    private let source: ObjectIdentifier
    @exclusivity(unchecked) private var pending: [PendingEvent] = []
    @exclusivity(unchecked) private var deliveryScheduled = false
    /// The buffer being delivered, swapped with ``pending`` so that both keep their capacity (no
    /// regrowth per batch). Only touched on `queue`.
    @exclusivity(unchecked) private var delivering: [PendingEvent] = []

    /// A registration for a ledger guarded by `ownerLock`, whose events' task IDs name `source`.
    package init(_ observer: any BackgroundTaskObserver, ownerLock: EngineLock, source: ObjectIdentifier) {
        self.observer = observer
        self.ownerLock = ownerLock
        self.source = source
        self.queue = DispatchQueue(label: "BackgroundTaskKit.observer")
    }

    /// Adds one event about `entry` to the buffer; schedules a delivery if none is pending. Never
    /// calls the observer. Called under the owner's lock, so events keep the order the owner saw.
    package func enqueue(_ kind: BackgroundTaskEvent.Kind, for entry: TaskListEntry, number: UInt64, time: TimeInterval)
    {
        pending.append(PendingEvent(kind: kind, entry: entry, number: number, time: time))
        guard !deliveryScheduled else { return }
        deliveryScheduled = true
        // Only schedules a block (never runs it here): no user code under the owner's lock.
        queue.asyncAfter(deadline: .now() + Self.batchingDelay) { self.deliver() }
    }

    /// How long a delivery waits for more events to join its batch.
    static let batchingDelay = DispatchTimeInterval.milliseconds(1)

    /// Waits until every event enqueued so far has been delivered. Must not be called under the
    /// owner's lock.
    package func waitUntilDelivered() {
        queue.sync { deliver() }
    }

    /// Delivers batches until the buffer stays empty; runs on `queue`.
    private func deliver() {
        while true {
            ownerLock.withLock {
                swap(&pending, &delivering)
                if delivering.isEmpty { deliveryScheduled = false }
            }
            if delivering.isEmpty { return }
            for event in delivering {
                observer.backgroundTaskEventOccurred(
                    BackgroundTaskEvent(
                        kind: event.kind,
                        taskID: BackgroundTaskEvent.TaskID(source: source, number: event.number),
                        name: event.entry.name,
                        callSite: event.entry.callSite,
                        time: event.time
                    )
                )
            }
            delivering.removeAll(keepingCapacity: true)
        }
    }
}
