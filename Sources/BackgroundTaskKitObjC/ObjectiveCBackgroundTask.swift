import BackgroundTaskKit
import Foundation

/// A background task for Objective-C code: `BTKBackgroundTask`, with the promise of ``SafeBackgroundTask`` (it is one).
///
/// Begin it with a name and the cleanup to run when time runs out, end it when the work is done. It is ended exactly
/// once: by ``end()`` (again is harmless), when time runs out (after the cleanup, on the main thread), or by the safety
/// net when the last reference to it goes away while it runs, which reports the leak with the line that began it.
/// ```objc
/// @import BackgroundTaskKitObjC;
///
/// BTKBackgroundTask *task = [BTKBackgroundTask beginWithName:@"Upload" expirationHandler:^{
///     [uploader cancel];  // on the main thread; the task is ended for you after it returns
/// }];
/// [uploader uploadWithCompletion:^(NSError *error) {
///     [task end];
/// }];
/// ```
/// The task uses the platform's default backend, as the Swift faces do (`UIApplication` in an app, expiring activities
/// in an app extension). Objective-C has no `#fileID`: pass `__FILE__` and `__LINE__` to
/// ``begin(withName:holdsAssertionOnlyInBackground:expirationHandler:file:line:)`` for the call site in leak reports
/// and diagnostics (a macro does it for every call; see `Documentation/ObjectiveC.md`).
#if canImport(ObjectiveC)
    @objc(BTKBackgroundTask)
#endif
public final class ObjectiveCBackgroundTask: NSObject, Sendable {
    private let task: SafeBackgroundTask

    private init(_ task: SafeBackgroundTask) {
        self.task = task
    }

    /// Begins a background task. It never fails: if the system refuses, ``isRunning`` is `NO` and the work should run
    /// anyway, without extra time.
    /// - Parameters:
    ///   - name: Shown in the system's console warnings; `nil` or empty means none.
    ///   - expirationHandler: Called on the main thread when time runs out, before the task is ended for you. Stop the
    ///     work quickly; do not end the task or start new work.
    /// - Returns: The running task.
    #if canImport(ObjectiveC)
        @objc(beginWithName:expirationHandler:)
    #endif
    public static func begin(withName name: String?, expirationHandler: (() -> Void)?) -> ObjectiveCBackgroundTask {
        begin(withName: name, holdsAssertionOnlyInBackground: false, expirationHandler: expirationHandler)
    }

    /// Begins a background task, with every option.
    /// - Parameters:
    ///   - name: Shown in the system's console warnings; `nil` or empty means none.
    ///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background (the work
    ///     runs at once; the assertion is raised when the app leaves the foreground).
    ///   - expirationHandler: Called on the main thread when time runs out, before the task is ended for you.
    ///   - file: The file that begins the task (`__FILE__`), for leak reports and diagnostics; `nil`: unknown.
    ///   - line: The line that begins the task (`__LINE__`).
    /// - Returns: The running task.
    #if canImport(ObjectiveC)
        @objc(beginWithName:holdsAssertionOnlyInBackground:expirationHandler:file:line:)
    #endif
    public static func begin(
        withName name: String?,
        holdsAssertionOnlyInBackground: Bool,
        expirationHandler: (() -> Void)?,
        file: String? = nil,
        line: Int = 0
    ) -> ObjectiveCBackgroundTask {
        begin(
            withName: name, backend: nil, holdsAssertionOnlyInBackground: holdsAssertionOnlyInBackground,
            expirationHandler: expirationHandler, file: file, line: line)
    }

    /// The Swift-only form, with a backend (the simulator in tests).
    package static func begin(
        withName name: String?,
        backend: (any BackgroundTaskBackend)?,
        holdsAssertionOnlyInBackground: Bool = false,
        expirationHandler: (() -> Void)?,
        file: String? = nil,
        line: Int = 0
    ) -> ObjectiveCBackgroundTask {
        // An Objective-C block is not `Sendable`: the engine calls it once, on the main actor, as the contract says.
        let handler = expirationHandler.map { block in
            let box = UncheckedSendableBox(block)
            return { @MainActor @Sendable in box.value() }
        }
        let task = SafeBackgroundTask.begin(
            name, backend: backend, onExpiration: handler,
            holdsAssertionOnlyInBackground: holdsAssertionOnlyInBackground, fileID: Self.fileID(of: file),
            line: line, function: "+[BTKBackgroundTask beginWithName:…]")
        return ObjectiveCBackgroundTask(task)
    }

    /// Ends the task. Idempotent and callable from any thread; after expiry it does nothing.
    #if canImport(ObjectiveC)
        @objc
    #endif
    public func end() {
        task.end()
    }

    /// Whether the task is running: `NO` once ended or expired, or if the system refused it.
    #if canImport(ObjectiveC)
        @objc
    #endif
    public var isRunning: Bool { task.state == .running }

    /// Whether time ran out before the task was ended: its handler has run (or is running) and its work should stop.
    #if canImport(ObjectiveC)
        @objc
    #endif
    public var isExpired: Bool { task.isExpired }

    /// The task's name, as given (cut to 256 characters); `nil` when it has none.
    #if canImport(ObjectiveC)
        @objc
    #endif
    public var name: String? { task.name }

    /// Where the task was begun, as the diagnostics name it.
    public var callSite: BackgroundTaskCallSite { task.callSite }

    /// `Folder/File.m` from a `__FILE__` path, as `#fileID` names a Swift file; `Objective-C` when unknown.
    static func fileID(of path: String?) -> String {
        guard let path, !path.isEmpty else { return "Objective-C" }
        return path.split(separator: "/").suffix(2).joined(separator: "/")
    }
}
