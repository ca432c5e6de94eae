import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import Testing

// Helpers shared by the test targets (the core's, the simulator's): one copy.

/// Shorthand for identifiers in expected event lists.
package func id(_ rawValue: Int) -> BackgroundTaskIdentifier {
    BackgroundTaskIdentifier(rawValue: rawValue)
}

/// Records the order in which handlers ran and on which thread.
@MainActor
package final class HandlerJournal {
    package init() {}

    package private(set) var entries: [String] = []
    package private(set) var ranOnMainActor: [Bool] = []

    package func note(_ entry: String) {
        entries.append(entry)
        ranOnMainActor.append(MainActorContext.isCurrent)
    }
}

/// A reference to an identifier a handler reads when it runs.
@MainActor
package final class Slot {
    package init() {}

    package var identifier: BackgroundTaskIdentifier?
}

/// Waits on the main actor without blocking it; records an issue after `timeout` seconds.
@MainActor
package func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ProcessInfo.processInfo.systemUptime + timeout
    while !condition() {
        guard ProcessInfo.processInfo.systemUptime < deadline else {
            Issue.record("Timed out waiting for \(what)")
            return false
        }
        try? await Task.sleep(nanoseconds: 50_000)
    }
    return true
}

/// Collects events from any thread.
package final class EventLog: Sendable {
    package init() {}

    private let events = Locked<[BackgroundTaskEvent]>([])

    package var all: [BackgroundTaskEvent] { events.value }
    package var kinds: [BackgroundTaskEvent.Kind] { all.map(\.kind) }
    package var names: [String?] { all.map(\.name) }

    package func record(_ event: BackgroundTaskEvent) {
        events.withLock { $0.append(event) }
    }
}

extension BackgroundTaskSimulator {
    /// How many assertions the system granted and ended, and whether any end was refused.
    package var bookkeeping: (began: Int, ended: Int, badEnds: Int) {
        let events = self.events
        return (
            events.filter { if case .began = $0 { true } else { false } }.count,
            events.filter { if case .ended = $0 { true } else { false } }.count,
            consoleMessages.filter { if case .cannotEndTask = $0 { true } else { false } }.count
        )
    }

    /// Checks that every assertion the system granted was ended exactly once and nothing leaked;
    /// `allowingSafetyNet` for tests that release running tasks on purpose.
    package func expectEveryAssertionEndedOnce(
        allowingSafetyNet: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if allowingSafetyNet {
            #expect(termination == nil, sourceLocation: sourceLocation)
            #expect(outstanding.isEmpty, sourceLocation: sourceLocation)
        } else {
            try expectNoLeaks()
        }
        let books = bookkeeping
        #expect(books.began > 0, sourceLocation: sourceLocation)
        #expect(books.began == books.ended, sourceLocation: sourceLocation)
        #expect(books.badEnds == 0, sourceLocation: sourceLocation)
    }
}

/// Lets queued main-actor work (late cleanups, ending closure tasks) run.
@MainActor
package func drainMainActor() async {
    for _ in 0..<50 { await Task.yield() }
}
