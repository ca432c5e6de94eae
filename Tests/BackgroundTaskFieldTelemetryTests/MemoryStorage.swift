import BackgroundTaskFieldTelemetry
import BackgroundTaskKitTesting
import Foundation

/// A flight recorder's storage in memory: the file-system stand-in. A write can be made to fail as a
/// crash mid-write would: the old contents stay, whole.
final class MemoryStorage: FlightRecorderStorage {
    struct CrashedMidWrite: Error {}

    private let files = Locked<[String: Data]>([:])
    private let failingWrites = Locked(0)

    func read(_ name: String) throws -> Data? {
        files.withLock { $0[name] }
    }

    func write(_ data: Data, to name: String) throws {
        if failingWrites.withLock({ count in
            defer { count = max(count - 1, 0) }
            return count > 0
        }) {
            throw CrashedMidWrite()
        }
        files.withLock { $0[name] = data }
    }

    /// The next `count` writes fail, leaving the files as they were.
    func failNextWrites(_ count: Int) {
        failingWrites.withLock { $0 = count }
    }

    /// Replaces a file's contents directly (a file a crashed non-atomic writer left).
    func corrupt(_ name: String, with text: String) {
        files.withLock { $0[name] = Data(text.utf8) }
    }

    /// The snapshot stored now.
    var snapshot: FlightRecorderSnapshot? {
        files.withLock { $0[FlightRecorder.snapshotFileName] }.flatMap {
            try? JSONDecoder().decode(FlightRecorderSnapshot.self, from: $0)
        }
    }

    /// Bytes stored under `name`.
    func size(of name: String) -> Int {
        files.withLock { $0[name]?.count ?? 0 }
    }
}
