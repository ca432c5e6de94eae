import BackgroundTaskKitTesting
import Foundation

/// Shorthand for identifiers in expected event lists.
func id(_ rawValue: Int) -> BackgroundTaskIdentifier {
    BackgroundTaskIdentifier(rawValue: rawValue)
}

/// Records the order in which handlers ran and on which thread.
@MainActor
final class HandlerJournal {
    private(set) var entries: [String] = []
    private(set) var ranOnMainActor: [Bool] = []

    func note(_ entry: String) {
        entries.append(entry)
        ranOnMainActor.append(MainActorContext.isCurrent)
    }
}

/// A reference to an identifier a handler reads when it runs.
@MainActor
final class Slot {
    var identifier: BackgroundTaskIdentifier?
}
