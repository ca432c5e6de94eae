import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// The simulated `BGTaskScheduler`, inside ``SimulatorState``: registrations, pending requests, launched tasks.
struct SimulatedScheduler {
    /// A task the system launched and that is not over yet.
    struct Launched {
        let identifier: String
        let isProcessing: Bool
        var isContinued = false
        var handler: (@Sendable () -> Void)?
        var expiresAt: TimeInterval
        /// Once its handler was called: the time by which it must be completed.
        var completionDeadline: TimeInterval?
        /// Its launch handler has not returned yet: its time starts when it has (the clock never runs ahead of a
        /// thread of the app's, and the system gives the task to the app before it can expire).
        var launching = true
        var expired: Bool { completionDeadline != nil }
    }

    /// In a struct, never as a dictionary of bare closures.
    struct Registration {
        let launchHandler: @Sendable (any LaunchedTask) -> Void
    }

    /// A continued-processing launch handler.
    struct ContinuedRegistration {
        let launchHandler: @Sendable (any LaunchedContinuedProcessingTask) -> Void
    }

    var hasFinishedLaunching = false
    var registrations: [String: Registration] = [:]
    var continuedRegistrations: [String: ContinuedRegistration] = [:]
    /// Continued-processing requests waiting for room (`.queue`), in order.
    var continuedQueue: [ContinuedProcessingRequest] = []
    var pending: [ScheduledTaskRequest] = []
    var running: [Int: Launched] = [:]
    var nextTask = 1

    /// The next moment a launched task needs the system: its expiry, or its completion deadline after the handler.
    var nextDue: TimeInterval? {
        running.values.filter { !$0.launching }.map { $0.completionDeadline ?? $0.expiresAt }.min()
    }
}

extension SimulatorState {
    /// What the scheduler does at `now`, if anything is due: the watchdog, an expiry whose handler the simulator
    /// calls (``Step/expireScheduledTask(_:)``), or a queued continued-processing job to start; `nil`: nothing due.
    mutating func stepScheduler() -> Step? {
        if let launch = launchQueuedContinuedProcessing() { return .launchContinuedProcessing(launch) }
        for number in scheduler.running.keys.sorted() {
            guard var task = scheduler.running[number], !task.launching else { continue }
            if let deadline = task.completionDeadline, deadline <= now {
                scheduler.running[number]?.completionDeadline = .infinity  // the watchdog acts once
                terminate(.watchdogTimeout, reason: .scheduledTaskNotCompleted, at: deadline)
                return termination == nil ? .again : .done
            }
            guard !task.expired, task.expiresAt <= now else { continue }
            record(.scheduledTaskExpired(identifier: task.identifier, hasHandler: task.handler != nil))
            guard let handler = task.handler else {
                scheduler.running[number] = nil  // marked complete and unsuccessful by the system
                return .again
            }
            task.handler = nil  // cleared once called
            task.completionDeadline = now + Self.seconds(configuration.handlerTimeBudget)
            scheduler.running[number] = task
            return .expireScheduledTask(handler)
        }
        return nil
    }

    /// Launches the task of a pending request: the app runs (resumed in the background if suspended); returns the
    /// launch handler to call with the new task's number, or `nil` (recorded: no request, no handler, terminated).
    mutating func launchScheduledTask(
        _ identifier: String
    ) -> (number: Int, handler: @Sendable (any LaunchedTask) -> Void)? {
        guard termination == nil else { return nil }
        guard let index = scheduler.pending.firstIndex(where: { $0.identifier == identifier }) else {
            record(.misuse(.noPendingTaskRequest(identifier: identifier)))
            return nil
        }
        let request = scheduler.pending.remove(at: index)
        scheduler.hasFinishedLaunching = true
        guard let registration = scheduler.registrations[identifier] else {
            terminate(.uncaughtException, reason: .noLaunchHandlerRegistered)
            return nil
        }
        if appState == .suspended { transition(to: .background) }
        let isProcessing = request.kind != .appRefresh
        let time = Self.seconds(isProcessing ? configuration.processingTaskTime : configuration.appRefreshTaskTime)
        let number = scheduler.nextTask
        scheduler.nextTask += 1
        scheduler.running[number] = SimulatedScheduler.Launched(
            identifier: identifier, isProcessing: isProcessing, expiresAt: now + time)
        record(.scheduledTaskLaunched(identifier: identifier))
        return (number, registration.launchHandler)
    }

    /// Task `number`'s launch handler returned: its time starts now.
    mutating func launchHandlerReturned(_ number: Int) {
        guard let task = scheduler.running[number], task.launching else { return }
        let time =
            task.isContinued
            ? configuration.continuedProcessingStallTime
            : task.isProcessing ? configuration.processingTaskTime : configuration.appRefreshTaskTime
        scheduler.running[number]?.launching = false
        scheduler.running[number]?.expiresAt = now + Self.seconds(time)
    }

    /// The app completed task `number`.
    mutating func completeScheduledTask(_ number: Int, identifier: String, success: Bool) {
        guard termination == nil else { return }
        guard scheduler.running.removeValue(forKey: number) != nil else {
            record(.scheduledTaskCompletionIgnored(identifier: identifier))
            return
        }
        record(.scheduledTaskCompleted(identifier: identifier, success: success))
    }

    /// Registers a launch handler as the framework does: an exception (termination) after launch or for an
    /// identifier registered already; `false` when the identifier is not permitted.
    mutating func registerScheduledTask(
        _ identifier: String, launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) -> Bool {
        guard termination == nil else { return true }
        guard environment.permits(identifier) != false else { return false }
        if scheduler.hasFinishedLaunching {
            terminate(.uncaughtException, reason: .launchHandlerRegisteredAfterLaunch)
        } else if scheduler.registrations[identifier] != nil {
            terminate(.uncaughtException, reason: .launchHandlerRegisteredTwice)
        } else {
            scheduler.registrations[identifier] = SimulatedScheduler.Registration(launchHandler: launchHandler)
            record(.scheduledTaskRegistered(identifier: identifier))
        }
        return true
    }

    /// Accepts a request as the framework does, or says why not.
    mutating func submitScheduledTask(_ request: ScheduledTaskRequest) -> TaskSchedulingError.Code? {
        guard termination == nil else { return .unavailable }
        guard environment.permits(request.identifier) != false,
            configuration.backgroundModes?.contains(request.requiredBackgroundMode) != false
        else { return .notPermitted }
        let isProcessing = request.kind != .appRefresh
        let sameKind = scheduler.pending.filter { ($0.kind != .appRefresh) == isProcessing }
        let limit =
            isProcessing
            ? configuration.maximumPendingProcessingRequests : configuration.maximumPendingAppRefreshRequests
        let replaces = sameKind.contains { $0.identifier == request.identifier }
        guard replaces || sameKind.count < limit else { return .tooManyPendingTaskRequests }
        scheduler.pending.removeAll { $0.identifier == request.identifier }
        scheduler.pending.append(request)
        record(.scheduledTaskSubmitted(request))
        return nil
    }

    /// What the simulated app's Info.plist and launch say.
    var environment: TaskSchedulerEnvironment {
        TaskSchedulerEnvironment(
            permittedIdentifiers: configuration.permittedTaskIdentifiers,
            backgroundModes: configuration.backgroundModes,
            hasFinishedLaunching: scheduler.hasFinishedLaunching)
    }
}
