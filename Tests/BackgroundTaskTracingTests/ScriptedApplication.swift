import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation

/// An application whose original begin and end a test scripts, to place the system's calls of a
/// wrapped handler exactly where they hurt: on another thread while the begin is still running, or
/// twice at once. It records, in order, what reached "the system".
final class ScriptedApplication: TracedApplication, Sendable {
    struct TaskIdentifier: BackgroundTaskIdentifierMirror {
        var rawValue: Int
        static let invalid = TaskIdentifier(rawValue: 0)
    }

    let tracer: BackgroundTaskTracer
    /// The script in a struct: a closure is never a lock's state itself.
    private struct Script {
        var duringNextBegin: (@Sendable (TaskIdentifier, (@MainActor @Sendable () -> Void)?) -> Void)?
        var beforeNextEnd: (@Sendable () -> Void)?
    }
    private let script = Locked(Script())
    private let nextRawValue = Locked(1)
    /// What reached the system, in order: `begin N`, `end N`, and what the script adds.
    let log = Locked<[String]>([])

    init(tracer: BackgroundTaskTracer) {
        self.tracer = tracer
    }

    /// Runs `body` inside the next original begin, with the identifier it will return and the
    /// (wrapped) handler the system got, before the begin returns.
    func duringNextBegin(_ body: @escaping @Sendable (TaskIdentifier, (@MainActor @Sendable () -> Void)?) -> Void) {
        script.withLock { $0.duringNextBegin = body }
    }

    @inline(never)
    func beginBackgroundTask(withName name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?)
        -> TaskIdentifier
    {
        let stack = TracedCallStack.capture()
        let identifier = tracer.interceptBegin(
            on: self, named: name, expirationHandler: expirationHandler, callStack: stack
        ) { _, handler in
            let identifier = TaskIdentifier(
                rawValue: nextRawValue.withLock { value in
                    defer { value += 1 }
                    return value
                })
            log.withLock { $0.append("begin \(identifier.rawValue)") }
            let body = script.withLock { script in
                defer { script.duringNextBegin = nil }
                return script.duringNextBegin
            }
            body?(identifier, handler)
            return identifier
        }
        return withExtendedLifetime(stack) { identifier }
    }

    @inline(never)
    func endBackgroundTask(_ identifier: TaskIdentifier) {
        tracer.interceptEnd(on: self, identifier) { endBackgroundTaskBypassingTracer($0) }
    }

    /// Runs `body` inside the next original end, before it reaches "the system".
    func beforeNextEnd(_ body: @escaping @Sendable () -> Void) {
        script.withLock { $0.beforeNextEnd = body }
    }

    func endBackgroundTaskBypassingTracer(_ identifier: TaskIdentifier) {
        let body = script.withLock { script in
            defer { script.beforeNextEnd = nil }
            return script.beforeNextEnd
        }
        body?()
        log.withLock { $0.append("end \(identifier.rawValue)") }
    }

    /// Calls a wrapped handler as the system would, from any thread.
    static func call(_ handler: (@MainActor @Sendable () -> Void)?) {
        guard let handler else { return }
        unsafeBitCast(handler, to: (@Sendable () -> Void).self)()
    }
}
