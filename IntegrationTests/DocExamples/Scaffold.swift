// What the documentation's examples take from the app around them, declared as an app declares it (in the
// Xcode 26-defaults client these are main-actor isolated, as an app's own types are there). Scripts/doc-examples.py
// compiles every example against this file. Not part of the library.
import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation

// MARK: - UIKit stand-ins, for the "before" examples (UIKit is Apple-only): the members they call, as the iOS 18 SDK
// declares them (nonisolated background-task members on a main-actor class).

nonisolated struct UIBackgroundTaskIdentifier: Hashable, Sendable {
    var rawValue: Int
    static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

@MainActor final class UIApplication {
    static let shared = UIApplication()
    nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { .invalid }
    nonisolated func beginBackgroundTask(
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { .invalid }
    nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
    nonisolated var backgroundTimeRemaining: TimeInterval { 0 }
}

nonisolated let app = UIApplicationReference()

/// `let app = UIApplication.shared`, as examples call it from any thread (the background-task members are
/// nonisolated).
final class UIApplicationReference: Sendable {
    nonisolated init() {}
    nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { .invalid }
    nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
}

// MARK: - The app's model and services

struct Video: Sendable {}
struct Photo: Sendable {}
struct Entry: Sendable {}
struct Item: Sendable {}
struct Change: Sendable {}

final class Uploader: Sendable {
    let backend: (any BackgroundTaskBackend)?
    init(backend: (any BackgroundTaskBackend)? = nil) { self.backend = backend }
    func start() {}
    func cancel() {}
    func cancel(_ video: Video) {}
    func cancel(_ photo: Photo) {}
    func finishNow() {}
    func upload(_ completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
    func upload(_ video: Video, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
    func upload(_ photo: Photo, completion: @escaping @Sendable (Result<Void, any Error>) -> Void = { _ in }) {}
}

/// Saves edits under a `ScopedBackgroundTask` (the Adopting guide's test).
final class Editor: Sendable {
    init(backend: (any BackgroundTaskBackend)? = nil) {}
    func saveChanges(_ changes: [Change]) {}
}

/// A share extension's saver (the Adopting guide's test).
final class ShareSaver: Sendable {
    init(backend: (any BackgroundTaskBackend)? = nil) {}
    func save(_ item: Item) {}
}

/// An SDK whose handler forgets to end its task (the Tracing guide's test).
enum ThirdPartySDK {
    static func flush(on application: SimulatedApplication) {}
}

final class Exporter: Sendable {
    init(backend: (any BackgroundTaskBackend)? = nil) {}
    func start() {}
    func export() async {}
    func export(_ completion: @escaping @Sendable () -> Void) {}
    func cancel() {}
}

final class Store: Sendable {
    init() {}
    func save(_ completion: @escaping @Sendable () -> Void) {}
    func write(_ draft: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void = { _ in }) {}
    func cancel() {}
    func cancelWrites() {}
    func saveDrafts() throws -> Int { 0 }
}

final class Disk: Sendable {
    init() {}
    func write(_ entry: Entry, completion: @escaping @Sendable () -> Void = {}) {}
    func cancel(_ entry: Entry) {}
    func cancel() {}
}

final class Canceller: Sendable {
    init() {}
    func cancel() {}
    func reload() {}
    func cancelSync() {}
}

final class Database: Sendable {
    init() {}
    func save() throws {}
    func cancelSave() {}
}

final class Archive: Sendable {
    init() {}
    func write(_ items: [Item]) {}
}

final class Analytics: Sendable {
    init() {}
    func log(_ name: String, _ values: [String: String]) {}
    func log(_ name: String, _ values: [String]) {}
    func log(_ name: String, _ count: Int) {}
    func track(_ name: String, _ properties: [String: String] = [:]) {}
}

let uploader = Uploader()
let exporter = Exporter()
let store = Store()
let disk = Disk()
let database = Database()
let archive = Archive()
let analytics = Analytics()
/// `os.Logger`'s calls the examples make, with its privacy-annotated interpolations (`os` is Apple-only). System
/// types: nonisolated, as the SDK declares them.
nonisolated final class Logger: Sendable {
    init(subsystem: String, category: String) {}
    func notice(_ message: LogMessage) {}
    func error(_ message: LogMessage) {}
    func fault(_ message: LogMessage) {}
}

nonisolated struct LogPrivacy: Sendable {
    static let `public` = LogPrivacy()
    static let `private` = LogPrivacy()
}

nonisolated struct LogMessage: ExpressibleByStringInterpolation {
    struct StringInterpolation: StringInterpolationProtocol {
        init(literalCapacity: Int, interpolationCount: Int) {}
        mutating func appendLiteral(_ literal: String) {}
        mutating func appendInterpolation(_ value: some CustomStringConvertible, privacy: LogPrivacy = .private) {}
        mutating func appendInterpolation(_ value: (some CustomStringConvertible)?, privacy: LogPrivacy = .private) {}
    }
    init(stringLiteral value: String) {}
    init(stringInterpolation: StringInterpolation) {}
}

let logger = Logger(subsystem: "com.example.app", category: "background")
let syncer = Canceller()
let refresher = Canceller()
let operation = Canceller()
let widgets = Canceller()
let contacts = Canceller()
let supportDirectory = URL(fileURLWithPath: NSTemporaryDirectory())

let photo = Photo()
let item = Item()

#if !canImport(UIKit)
    // `BackgroundTaskTracer.install` exchanges UIKit's methods, so it exists only where UIKit does: its signature,
    // for the examples to compile against on Linux (never called).
    extension BackgroundTaskTracer {
        static func install(configuration: Configuration = Configuration()) -> BackgroundTaskTracer {
            fatalError("compile-only stand-in")
        }
    }
#endif

/// The DocC articles' app.
final class Drafts: Sendable {
    init() {}
    func save(_ completion: @escaping @Sendable () -> Void) {}
    func cancelSave() {}
}

final class FeedAPI: Sendable {
    init() {}
    func fetchFeed() async throws -> [String] { [] }
}

final class SyncService: Sendable {
    init() {}
    func run() async throws {}
}

let drafts = Drafts()
let api = FeedAPI()
let sync = SyncService()
let entry = Entry()
let manager = BackgroundTaskManager()
func scheduleSyncLater() {}
func runApp() {}
