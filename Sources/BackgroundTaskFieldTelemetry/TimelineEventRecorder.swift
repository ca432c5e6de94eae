import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskTimeline

/// An observer that keeps the most recent events of a `DiagnosingBackend`, a manager with diagnostics or a
/// `BackgroundTaskTracer`, and draws them as a timeline: the picture of a run in the field, for a debug menu or a bug
/// report.
///
/// ```swift
/// let recorder = TimelineEventRecorder()
/// diagnosingBackend.addObserver(recorder)
/// // … later, in a debug menu:
/// diagnosingBackend.waitForObservers()  // the events delivered so far
/// let svg = recorder.timeline(title: "Last background session").svg()
/// ```
///
/// Memory is bounded: beyond ``maximumEvents`` the oldest events are dropped (a task whose begin was dropped starts
/// at its first event kept), and the timeline says how many were. Observers get events on a serial queue of their
/// own; ``events`` and ``timeline(title:)`` may be read from any thread.
public final class TimelineEventRecorder: BackgroundTaskObserver, Sendable {
    private struct Buffer {
        var events: [BackgroundTaskEvent] = []
        /// The index of the oldest event kept: dropped events are removed in batches.
        var head = 0
        var dropped = 0
    }

    /// The most events kept; at least 1.
    public let maximumEvents: Int
    private let buffer = Locked(Buffer())

    /// Creates a recorder.
    ///
    /// - Parameter maximumEvents: The most events kept, oldest dropped first. Default 10,000 (a few hundred bytes
    ///   each); values below 1 count as 1.
    public init(maximumEvents: Int = 10_000) {
        self.maximumEvents = max(maximumEvents, 1)
    }

    /// Keeps `event`, dropping the oldest beyond ``maximumEvents``.
    public func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        buffer.withLock { buffer in
            buffer.events.append(event)
            if buffer.events.count - buffer.head > maximumEvents {
                buffer.head += 1
                buffer.dropped += 1
            }
            // Compact once the dropped prefix is as long as what is kept.
            if buffer.head >= maximumEvents {
                buffer.events.removeFirst(buffer.head)
                buffer.head = 0
            }
        }
    }

    /// The events kept, oldest first.
    public var events: [BackgroundTaskEvent] {
        buffer.withLock { Array($0.events[$0.head...]) }
    }

    /// How many events were dropped to keep within ``maximumEvents``.
    public var droppedEventCount: Int {
        buffer.withLock { $0.dropped }
    }

    /// Forgets every event.
    public func removeAll() {
        buffer.withLock { $0 = Buffer() }
    }

    /// The events kept, drawn (`BackgroundTaskTimeline(events:title:)`), with a note when older ones were dropped.
    ///
    /// - Parameter title: What the picture shows.
    public func timeline(title: String = "Observed background tasks") -> BackgroundTaskTimeline {
        let (kept, dropped) = buffer.withLock { (Array($0.events[$0.head...]), $0.dropped) }
        var timeline = BackgroundTaskTimeline(events: kept, title: title)
        if dropped > 0 {
            timeline.notes.append(
                "\(dropped) older events were dropped to keep the last \(maximumEvents); "
                    + "a task begun before them starts at its first event kept.")
        }
        return timeline
    }
}
