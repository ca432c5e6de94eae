import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// One thing that happened in a ``BackgroundTaskSimulator``: what the system saw or did.
///
/// Tests compare ``BackgroundTaskSimulator/events`` against an expected list:
///
/// ```swift
/// #expect(simulator.events == [
///     .appStateChanged(.background),
///     .began(BackgroundTaskIdentifier(rawValue: 1), name: "Upload"),
///     .ended(BackgroundTaskIdentifier(rawValue: 1)),
///     .appStateChanged(.suspended),
/// ])
/// ```
public enum SimulatorEvent: Equatable, Sendable {
    /// The app moved to a new state (termination is reported by ``terminated(_:)`` instead).
    case appStateChanged(SimulatedAppState)
    /// An assertion was granted.
    case began(BackgroundTaskIdentifier, name: String?)
    /// A begin was refused.
    case notGranted(name: String?)
    /// An outstanding assertion was ended.
    case ended(BackgroundTaskIdentifier)
    /// The background time ran out: the expiration handlers are about to be called.
    case backgroundTimeExpired
    /// An expiration handler was entered; `nil` identifies the handler of a begin that was not
    /// granted. `onMainActor` is `false` under ``SimulatorFault/handlerOffMainActor``.
    case expirationHandlerCalled(BackgroundTaskIdentifier?, onMainActor: Bool)
    /// An expiration handler returned.
    case expirationHandlerReturned(BackgroundTaskIdentifier?)
    /// The system printed a console message.
    case console(ConsoleMessage)
    /// The system killed the app.
    case terminated(SimulatedTermination)
    /// The watchdog would have terminated the app here, but ``SimulatorConfiguration/debuggerAttached``
    /// is set: the app goes on, as under Xcode's debugger.
    case terminationPreventedByDebugger(SimulatedTermination)
    /// The test drove the simulator in a way no real app could; nothing else happened.
    case misuse(SimulatorMisuse)
    /// The app took a file lock the test declared (``BackgroundTaskSimulator/takeFileLock(_:)``).
    case fileLockTaken(name: String)
    /// The app released a file lock it had taken.
    case fileLockReleased(name: String)
    /// A `BGTaskScheduler` launch handler was registered.
    case scheduledTaskRegistered(identifier: String)
    /// A scheduled task request was accepted (it replaces a pending one of the same identifier).
    case scheduledTaskSubmitted(ScheduledTaskRequest)
    /// The system launched the app for a pending request and called its launch handler.
    case scheduledTaskLaunched(identifier: String)
    /// A launched task's time ran out: its expiration handler is called, or, without one, the system marks it
    /// complete and unsuccessful.
    case scheduledTaskExpired(identifier: String, hasHandler: Bool)
    /// The app completed a launched task (`setTaskCompleted(success:)`).
    case scheduledTaskCompleted(identifier: String, success: Bool)
    /// The app completed a launched task that was already over (completed before, or by the system): ignored.
    case scheduledTaskCompletionIgnored(identifier: String)
    /// A continued-processing request was accepted: started at once, or `queued`.
    case continuedProcessingSubmitted(identifier: String, queued: Bool)
    /// A continued-processing job reported its progress.
    case continuedProcessingProgress(identifier: String, completed: Int64, total: Int64)
    /// The person stopped a continued-processing job from its Live Activity (the app sees an expiry).
    case continuedProcessingStopped(identifier: String)
}

/// A call that a real app could not make, recorded instead of trapping.
public enum SimulatorMisuse: Equatable, Sendable {
    /// `advance(by:)` or `spend(_:)` with a negative, infinite or NaN duration.
    case invalidDuration
    /// A state change the app cannot make from its current state, for example entering the
    /// background while suspended.
    case invalidTransition(from: SimulatedAppState, to: SimulatedAppState)
    /// `beginBackgroundTask` or `endBackgroundTask` while the app is suspended: suspended code does
    /// not run. Call `resumeInBackground()` or `enterForeground()` first.
    case callWhileSuspended
    /// A handler the simulator called off the main thread had not returned after
    /// ten seconds of real time (typically: it waits for `DispatchQueue.main`, which cannot run while
    /// the test's main thread waits for the handler); the simulator went on without it.
    case offMainHandlerDidNotReturn(BackgroundTaskIdentifier?)
    /// While this simulator was a default backend (`withBackgroundTaskBackend`), a task begun at the
    /// call site used the platform's backend instead: the task-local default did not reach its
    /// queue, thread or detached task. Use `withProcessWideBackgroundTaskBackend`, or pass the backend.
    case defaultBackendNotReached(BackgroundTaskCallSite)
    /// `advance(by:)` stopped before its target, at the time of this event, because app timers had fired `limit`
    /// times in it: periodic work (such as a manager's handover of its shared assertion every 20 s, for as long as a
    /// task runs) would make a huge duration take hours. Advance by less, or end the tasks first.
    case timerFiringLimitReached(limit: Int)
    /// ``BackgroundTaskSimulator/runScheduledTask(_:)`` named an identifier with no pending request: the system
    /// launches only for submitted requests.
    case noPendingTaskRequest(identifier: String)
    /// `advance(by:)` or `spend(_:)` stopped before its target, at the time of this event, because `work` kept arriving
    /// from the app's other threads while the clock stood still: it had run `taken` pieces of such work, as many as
    /// one advance takes (``BackgroundTaskSimulator/maximumArrivalsPerAdvance``, or fewer when
    /// ``BackgroundTaskSimulator/maximumArrivalRealTimePerAdvance`` ran out first), and more came. Time does not move
    /// while the main thread runs what other threads send it, so threads that never stop would hold the test for ever.
    /// Stop (or join) the threads before advancing, or advance in smaller steps once they are done.
    case arrivingWorkLimitReached(taken: Int, work: ArrivingWork)

    /// What kept arriving from other threads in ``SimulatorMisuse/arrivingWorkLimitReached(taken:work:)``.
    public enum ArrivingWork: Equatable, Sendable {
        /// Work sent to the main actor: the expiration handlers of begins made off the main thread under
        /// ``SimulatorFault/handlerBeforeBeginReturns``, the cleanups the package sends there.
        case mainActorWork
        /// Expiration handlers due when the clock moves: those of begins refused under
        /// ``SimulatorFault/notGranted(callingHandler:)``.
        case expirationHandlers
        /// Begins and ends held by ``SimulatorFault/holdOffMainCalls(_:)`` that kept coming to the gate.
        case heldCalls
    }
}

/// An event with the virtual time at which it happened.
public struct SimulatorLogEntry: Equatable, Sendable, CustomStringConvertible {
    /// Virtual time in seconds.
    public var time: TimeInterval
    /// What happened.
    public var event: SimulatorEvent

    /// Creates a log entry.
    public init(time: TimeInterval, event: SimulatorEvent) {
        self.time = time
        self.event = event
    }

    /// `[30 s] console: Background task still not ended…`.
    public var description: String {
        "[\(formatSeconds(time)) s] \(event)"
    }
}

extension SimulatorEvent: CustomStringConvertible {
    /// The event in words, as the failure log shows it: `began 1 (0x1) "Upload"`.
    public var description: String {
        switch self {
        case .appStateChanged(let state): "app state: \(state)"
        case .began(let identifier, let name): "began \(identifier) \(Self.quoted(name))"
        case .notGranted(let name): "not granted: \(Self.quoted(name))"
        case .ended(let identifier): "ended \(identifier)"
        case .backgroundTimeExpired: "background time expired: calling the expiration handlers"
        case .expirationHandlerCalled(let identifier, let onMainActor):
            "expiration handler of \(Self.subject(identifier)) called "
                + (onMainActor ? "on the main actor" : "off the main actor")
        case .expirationHandlerReturned(let identifier): "expiration handler of \(Self.subject(identifier)) returned"
        case .console(let message): "console: \(message.text)"
        case .terminated(let termination): termination.description
        case .terminationPreventedByDebugger(let termination):
            "the debugger kept the app alive; without it: \(termination)"
        case .misuse(let misuse): "misuse: \(misuse)"
        case .fileLockTaken(let name): "file lock taken: \(Self.quoted(name))"
        case .fileLockReleased(let name): "file lock released: \(Self.quoted(name))"
        case .scheduledTaskRegistered(let identifier): "scheduled task registered: \(identifier)"
        case .scheduledTaskSubmitted(let request): "scheduled task submitted: \(request)"
        case .scheduledTaskLaunched(let identifier): "scheduled task launched: \(identifier)"
        case .scheduledTaskExpired(let identifier, let hasHandler):
            "scheduled task expired: \(identifier)"
                + (hasHandler ? ", calling its expiration handler" : ", no handler: marked complete and unsuccessful")
        case .scheduledTaskCompleted(let identifier, let success):
            "scheduled task completed: \(identifier) (success: \(success))"
        case .scheduledTaskCompletionIgnored(let identifier):
            "scheduled task completed again, ignored: \(identifier)"
        case .continuedProcessingSubmitted(let identifier, let queued):
            "continued processing submitted: \(identifier)" + (queued ? " (queued)" : "")
        case .continuedProcessingProgress(let identifier, let completed, let total):
            "continued processing progress: \(identifier) \(completed)/\(total)"
        case .continuedProcessingStopped(let identifier): "continued processing stopped by the person: \(identifier)"
        }
    }

    static func quoted(_ name: String?) -> String {
        name.map { "\"\($0)\"" } ?? "(unnamed)"
    }

    static func subject(_ identifier: BackgroundTaskIdentifier?) -> String {
        identifier.map(\.description) ?? "a refused begin"
    }
}

extension SimulatorMisuse: CustomStringConvertible {
    /// The misuse in words.
    public var description: String {
        switch self {
        case .invalidDuration: "a negative, infinite or NaN duration"
        case .invalidTransition(let from, let to): "no way from \(from) to \(to)"
        case .callWhileSuspended: "begin or end while the app is suspended (suspended code does not run)"
        case .offMainHandlerDidNotReturn(let identifier):
            "the expiration handler of \(SimulatorEvent.subject(identifier)), called off the main thread, had not "
                + "returned in time (is it waiting for DispatchQueue.main, which the test's main thread holds?)"
        case .defaultBackendNotReached(let callSite):
            "a task begun at \(callSite) used the platform's backend, not this simulator: a task-local "
                + "withBackgroundTaskBackend does not reach DispatchQueue work, other threads or Task.detached "
                + "(use withProcessWideBackgroundTaskBackend, or pass the backend)"
        case .timerFiringLimitReached(let limit):
            "advance(by:) stopped here, short of its target: app timers fired \(limit) times in it (a manager hands "
                + "its shared assertion over every 20 s while a task runs); advance by less, or end the tasks first"
        case .noPendingTaskRequest(let identifier):
            "runScheduledTask(\"\(identifier)\"): no request of that identifier is pending (submit one first)"
        case .arrivingWorkLimitReached(let taken, let work):
            "advance(by:) stopped here, short of its target: \(work) kept arriving from other threads while the clock "
                + "stood still; it ran \(taken) pieces of such work, as many as one advance takes, and more came. "
                + "Stop or join the threads that keep calling before advancing, or advance in smaller steps once they "
                + "are done"
        }
    }
}

extension SimulatorMisuse.ArrivingWork: CustomStringConvertible {
    /// The work in words.
    public var description: String {
        switch self {
        case .mainActorWork:
            "work sent to the main actor (the handlers of begins made off the main thread, the package's cleanups)"
        case .expirationHandlers:
            "expiration handlers of begins made meanwhile (refused with a handler call)"
        case .heldCalls: "begins and ends held at the gate of .holdOffMainCalls"
        }
    }
}
