import Dispatch

/// One registered observer and the serial queue that delivers to it.
///
/// Events are buffered and delivered in batches: an operation adds its events to the buffer and
/// schedules a delivery only when none is pending, a millisecond later, so a stream of begins and
/// ends costs one queue hop per millisecond instead of one per event. Order is kept: one buffer,
/// drained in order, on one serial queue. ``waitUntilDelivered()`` delivers at once.
final class ObserverRegistration: @unchecked Sendable {  // the buffer is only touched under `lock`
    let observer: any BackgroundTaskObserver
    let queue: DispatchQueue
    private let lock = EngineLock()
    @exclusivity(unchecked) private var events: [BackgroundTaskEvent] = []
    @exclusivity(unchecked) private var deliveryScheduled = false

    init(_ observer: any BackgroundTaskObserver) {
        self.observer = observer
        self.queue = DispatchQueue(label: "BackgroundTaskKit.observer")
    }

    /// Adds one event to the buffer; schedules a delivery if none is pending. Never calls the
    /// observer. Called under the owner's lock, so events keep the order the owner saw.
    func enqueue(_ event: BackgroundTaskEvent) {
        let mustSchedule = lock.withLock { () -> Bool in
            events.append(event)
            defer { deliveryScheduled = true }
            return !deliveryScheduled
        }
        if mustSchedule {
            queue.asyncAfter(deadline: .now() + Self.batchingDelay) { self.deliver() }
        }
    }

    /// How long a delivery waits for more events to join its batch.
    static let batchingDelay = DispatchTimeInterval.milliseconds(1)

    /// Waits until every event enqueued so far has been delivered.
    func waitUntilDelivered() {
        queue.sync { deliver() }
    }

    /// Delivers batches until the buffer stays empty; runs on `queue`.
    private func deliver() {
        while true {
            let batch = lock.withLock { () -> [BackgroundTaskEvent] in
                let batch = events
                events = []
                if batch.isEmpty { deliveryScheduled = false }
                return batch
            }
            if batch.isEmpty { return }
            for event in batch { observer.backgroundTaskEventOccurred(event) }
        }
    }
}
