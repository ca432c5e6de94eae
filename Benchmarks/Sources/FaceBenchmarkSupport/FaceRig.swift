import BackgroundTaskKit
import Foundation

/// One ``Face`` ready to be measured on one backend: runs begin+end pairs, with tasks of the same face
/// held outstanding around them.
///
/// A manager face gets its own `BackgroundTaskManager`, whose cap is raised so that 10,000 tasks can be
/// held (the default of 100 would refuse them); everything else is the default configuration.
///
/// ```swift
/// let rig = FaceRig(.safe)
/// rig.holding(10_000) { rig.runPairs(1_000) }  // 1,000 pairs while 10,000 tasks are outstanding
/// ```
///
/// `.withAsync` runs only through the `async` methods, `.withSync` only through the synchronous ones
/// (it holds tasks by nesting `withBackgroundTask` calls); every other face runs through both.
public final class FaceRig: Sendable {
    /// The face this rig runs.
    public let face: Face
    /// The backend every task of this rig is begun on.
    public let backend: any BackgroundTaskBackend
    private let manager: BackgroundTaskManager?

    /// Creates a rig.
    ///
    /// - Parameters:
    ///   - face: The face or peer to run.
    ///   - backend: The backend; by default a fresh `UnlimitedBackend`.
    public init(_ face: Face, backend: any BackgroundTaskBackend = UnlimitedBackend()) {
        self.face = face
        self.backend = backend
        switch face {
        case .manager, .managerSeparate:
            manager = BackgroundTaskManager(
                backend: backend,
                configuration: Self.managerConfiguration(coalescing: face == .manager)
            )
        default:
            manager = nil
        }
    }

    /// The manager configuration the benchmarks use: the default, with room for every held task.
    ///
    /// - Parameter coalescing: Whether the tasks share one assertion (the default) or have one each.
    /// - Returns: The configuration.
    public static func managerConfiguration(coalescing: Bool) -> BackgroundTaskManager.Configuration {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = coalescing
        configuration.maximumOutstandingTasks = 1_000_000
        return configuration
    }

    // MARK: - Pairs

    /// Begins and ends `count` tasks, one after the other. Not for `.withAsync`.
    ///
    /// - Parameter count: The number of begin+end pairs.
    public func runPairs(_ count: Int) {
        switch face {
        case .raw:
            for _ in 0..<count {
                if let identifier = backend.beginBackgroundTask(named: "pair", expirationHandler: nil) {
                    backend.endBackgroundTask(identifier)
                }
            }
        case .handWritten:
            for _ in 0..<count { HandWrittenTask("pair", backend: backend).end() }
        case .safe:
            for _ in 0..<count { SafeBackgroundTask.begin("pair", backend: backend).end() }
        case .scoped:
            for _ in 0..<count { ScopedBackgroundTask("pair", backend: backend).end() }
        case .withSync:
            for _ in 0..<count { withBackgroundTask("pair", backend: backend) {} }
        case .withAsync, .handWrittenAsync:
            preconditionFailure("async pairs run in `runPairsAsync(_:)`")
        case .manager, .managerSeparate:
            for _ in 0..<count { try! manager!.beginTask("pair").end() }
        }
    }

    /// Begins and ends `count` tasks, one after the other, from an `async` context. Not for `.withSync`.
    ///
    /// - Parameter count: The number of begin+end pairs.
    public func runPairsAsync(_ count: Int) async {
        switch face {
        case .withAsync:
            // An `async` body, or the synchronous overload would be chosen.
            for _ in 0..<count { await withBackgroundTask("pair", backend: backend) { () async in } }
        case .handWrittenAsync:
            for _ in 0..<count { await HandWrittenAsyncTask.run("pair", backend: backend) {} }
        default:
            runPairs(count)
        }
    }

    // MARK: - Held tasks

    /// Runs `body` while `count` tasks of this face are outstanding, then ends them. Not for `.withAsync`.
    ///
    /// - Parameters:
    ///   - count: The number of tasks to hold.
    ///   - beforeFirstBegin: Called once the storage for the tasks is reserved, just before the first
    ///     begin, so that a memory measurement sees only the tasks.
    ///   - body: Runs while the tasks are held.
    public func holding(_ count: Int, beforeFirstBegin: () -> Void = {}, _ body: () -> Void) {
        if face == .withSync {
            return Self.onLargeStack {
                beforeFirstBegin()
                nest(count, body)
            }
        }
        let held = beginHeld(count, beforeFirstBegin)
        body()
        endHeld(held)
    }

    /// Runs `body` while `count` tasks of this face are outstanding, then ends them. Not for `.withSync`.
    ///
    /// - Parameters:
    ///   - count: The number of tasks to hold.
    ///   - beforeFirstBegin: Called just before the first begin.
    ///   - body: Runs while the tasks are held.
    public func holdingAsync(_ count: Int, beforeFirstBegin: () -> Void = {}, _ body: () async -> Void) async {
        if face.isAsync {
            beforeFirstBegin()
            return await nestAsync(count, body)
        }
        let held = beginHeld(count, beforeFirstBegin)
        await body()
        endHeld(held)
    }

    /// The tasks of a face that does not nest, in storage reserved before the first begin.
    private enum Held {
        case identifiers([BackgroundTaskIdentifier])
        case handWritten([HandWrittenTask])
        case safe([SafeBackgroundTask])
        case scoped(UnsafeMutableBufferPointer<ScopedBackgroundTask>)
    }

    private func beginHeld(_ count: Int, _ beforeFirstBegin: () -> Void) -> Held {
        func collect<Task>(_ begin: () -> Task) -> [Task] {
            var tasks: [Task] = []
            tasks.reserveCapacity(count)
            beforeFirstBegin()
            for _ in 0..<count { tasks.append(begin()) }
            return tasks
        }
        switch face {
        case .raw:
            return .identifiers(collect { backend.beginBackgroundTask(named: "held", expirationHandler: nil)! })
        case .handWritten:
            return .handWritten(collect { HandWrittenTask("held", backend: backend) })
        case .safe:
            return .safe(collect { SafeBackgroundTask.begin("held", backend: backend) })
        case .manager, .managerSeparate:
            return .safe(collect { try! manager!.beginTask("held") })
        case .scoped:
            // `~Copyable` values cannot go in an array; a buffer of them can.
            let tasks = UnsafeMutableBufferPointer<ScopedBackgroundTask>.allocate(capacity: count)
            beforeFirstBegin()
            for index in 0..<count {
                tasks.initializeElement(at: index, to: ScopedBackgroundTask("held", backend: backend))
            }
            return .scoped(tasks)
        case .withSync, .withAsync, .handWrittenAsync:
            preconditionFailure("the with-faces hold tasks by nesting")
        }
    }

    private func endHeld(_ held: Held) {
        switch held {
        case .identifiers(let identifiers):
            for identifier in identifiers { backend.endBackgroundTask(identifier) }
        case .handWritten(let tasks):
            for task in tasks { task.end() }
        case .safe(let tasks):
            for task in tasks { task.end() }
        case .scoped(let tasks):
            for index in tasks.indices { tasks.moveElement(from: index).end() }
            tasks.deallocate()
        }
    }

    /// Holds `remaining` sync `withBackgroundTask` calls open, one inside the other, around `body`.
    private func nest(_ remaining: Int, _ body: () -> Void) {
        guard remaining > 0 else { return body() }
        withBackgroundTask("held", backend: backend) { nest(remaining - 1, body) }
    }

    /// Runs `body` on a thread of its own with a 256 MB stack, and waits for it: 10,000 nested
    /// synchronous `withBackgroundTask` calls need more than 4 MB of stack, about all that a main thread
    /// has, and more than other threads have.
    private static func onLargeStack(_ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            // Runs while this thread waits, and is dropped before `done` is signalled: the thread
            // object keeps its block, which must not keep `body`.
            nonisolated(unsafe) var work: (() -> Void)? = body
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                work?()
                work = nil
                done.signal()
            }
            thread.stackSize = 256 << 20
            thread.start()
            done.wait()
        }
    }

    /// Holds `remaining` async `withBackgroundTask` calls open, one inside the other, around `body`.
    private func nestAsync(_ remaining: Int, _ body: () async -> Void) async {
        guard remaining > 0 else { return await body() }
        if face == .handWrittenAsync {
            // The peer's body must be `@Sendable`: the rest of the nest runs in it.
            await withoutActuallyEscaping(body) { body in
                let rest = UncheckedBody(body)
                await HandWrittenAsyncTask.run("held", backend: backend) {
                    await self.nestAsync(remaining - 1, rest.body)
                }
            }
            return
        }
        await withBackgroundTask("held", backend: backend) { await nestAsync(remaining - 1, body) }
    }
}

/// A body handed to a `@Sendable` closure that the caller awaits: it runs while the caller waits, and
/// never at the same time as anything else of the caller's.
private struct UncheckedBody: @unchecked Sendable {  // called only while its owner waits for it
    let body: () async -> Void
    init(_ body: @escaping () async -> Void) { self.body = body }
}
