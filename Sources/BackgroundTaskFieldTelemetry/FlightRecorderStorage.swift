import BackgroundTaskKit
import Foundation

/// Where a ``FlightRecorder`` keeps its two small files: the last snapshot and the record of probable
/// terminations. Every write must be atomic: after a crash at any point, a read returns the complete
/// old contents or the complete new ones.
///
/// ``FileFlightRecorderStorage`` is the real one; tests can pass a stand-in.
public protocol FlightRecorderStorage: Sendable {
    /// The contents of the file called `name`, or `nil` when there is none.
    func read(_ name: String) throws -> Data?
    /// Replaces the file called `name` with `data`, atomically.
    func write(_ data: Data, to name: String) throws
}

/// Files in a directory, written atomically. Use one directory per process kind: an app extension
/// that shares an App Group container with its app needs a directory of its own, or it reads the
/// app's snapshot as its own previous run's.
///
/// The files are written atomically: the data goes to a temporary file in the same directory,
/// which then replaces the old file with one `rename` (Foundation's `.atomic` writing option), so a
/// crash mid-write leaves the old file whole.
///
/// ```swift
/// let directory = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
///     .appendingPathComponent("BackgroundTaskKit", isDirectory: true)
/// let storage = FileFlightRecorderStorage(directory: directory)
/// ```
public struct FileFlightRecorderStorage: FlightRecorderStorage {
    /// The directory holding the files; created at the first write.
    public let directory: URL

    /// Storage in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Reads the file; `nil` when it does not exist.
    public func read(_ name: String) throws -> Data? {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Writes the file atomically, creating the directory if needed. On iOS, tvOS, watchOS and
    /// visionOS the file is protected only until the first unlock after a restart, so that it can be
    /// written while the device is locked, which is when background time runs out.
    public func write(_ data: Data, to name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: directory.appendingPathComponent(name), options: Self.writingOptions)
    }

    #if canImport(Darwin) && !os(macOS)
        private static let writingOptions: Data.WritingOptions = [
            .atomic, .completeFileProtectionUntilFirstUserAuthentication,
        ]
    #else
        private static let writingOptions: Data.WritingOptions = [.atomic]
    #endif
}
