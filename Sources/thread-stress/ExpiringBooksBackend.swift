import BackgroundTaskKit
import Foundation

/// A backend that grants every assertion, keeps books of what the system would see, and expires
/// every running assertion when the stress says so, as iOS does: each handler in begin order, on the
/// main thread, then a look at what is still held.
final class ExpiringBooksBackend: BackgroundTaskBackend, Sendable {
    /// What the system saw.
    struct Books {
        var nextIdentifier = 1
        /// Running assertions and their handlers, by identifier (in a struct: see `LockedState`).
        var running: [Int: Handler] = [:]
        var begun = 0
        var ended = 0
        /// Ends of identifiers not running: ended twice, or never begun.
        var badEnds: [Int] = []
    }

    struct Handler {
        let run: (@MainActor @Sendable () -> Void)?
    }

    private let books = Locked(Books())

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let rawValue = books.withLock { books in
            defer { books.nextIdentifier += 1 }
            books.running[books.nextIdentifier] = Handler(run: expirationHandler)
            books.begun += 1
            return books.nextIdentifier
        }
        return BackgroundTaskIdentifier(rawValue: rawValue)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        let handler = books.withLock { books in
            guard let handler = books.running.removeValue(forKey: identifier.rawValue) else {
                books.badEnds.append(identifier.rawValue)
                return Handler?.none
            }
            books.ended += 1
            return handler
        }
        _ = handler  // released outside the lock
    }

    var backgroundTimeRemaining: TimeInterval? { nil }

    /// Calls the handler of every assertion running now, in begin order (skipping those an earlier
    /// handler ended), and returns those of them still held afterwards: each would be a `0x8badf00d`.
    @MainActor
    func expireAll() -> [Int] {
        let covered = books.withLock { $0.running.keys.sorted() }
        for identifier in covered {
            let handler = books.withLock { $0.running[identifier] }
            handler?.run?()
        }
        return books.withLock { books in covered.filter { books.running[$0] != nil } }
    }

    /// The books now.
    var snapshot: (begun: Int, ended: Int, running: Int, badEnds: [Int]) {
        books.withLock { ($0.begun, $0.ended, $0.running.count, $0.badEnds) }
    }
}
