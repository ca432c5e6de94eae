import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// A continued-processing job to start: its task's number, identifier and launch handler.
struct ContinuedLaunchDue {
    let number: Int
    let identifier: String
    let launchHandler: @Sendable (any LaunchedContinuedProcessingTask) -> Void
}

extension SimulatorState {
    private var runningContinuedCount: Int {
        scheduler.running.values.filter(\.isContinued).count
    }

    private var hasRoomForContinuedProcessing: Bool {
        runningContinuedCount < max(configuration.maximumRunningContinuedProcessingTasks, 0)
    }

    /// Registers a continued-processing launch handler: allowed after launch; twice is the framework's exception;
    /// `false` for an identifier not permitted.
    mutating func registerContinuedProcessing(
        _ identifier: String, launchHandler: @escaping @Sendable (any LaunchedContinuedProcessingTask) -> Void
    ) -> Bool {
        guard termination == nil else { return true }
        guard environment.permits(identifier) != false else { return false }
        guard scheduler.continuedRegistrations[identifier] == nil, scheduler.registrations[identifier] == nil else {
            terminate(.uncaughtException, reason: .launchHandlerRegisteredTwice)
            return true
        }
        scheduler.continuedRegistrations[identifier] = SimulatedScheduler.ContinuedRegistration(
            launchHandler: launchHandler)
        record(.scheduledTaskRegistered(identifier: identifier))
        return true
    }

    /// Accepts a continued-processing request from the foreground: starts it if there is room (the launch to make is
    /// returned), queues it (`.queue`), or refuses it.
    mutating func submitContinuedProcessing(
        _ request: ContinuedProcessingRequest
    ) -> Result<ContinuedLaunchDue?, TaskSchedulingError> {
        let refuse = { (code: TaskSchedulingError.Code, detail: String) in
            Result<ContinuedLaunchDue?, TaskSchedulingError>.failure(
                TaskSchedulingError(code, identifier: request.identifier, detail: detail))
        }
        guard termination == nil else { return refuse(.unavailable, "terminated") }
        guard appState == .foreground else { return refuse(.notPermitted, "submitted from the background") }
        guard environment.permits(request.identifier) != false else { return refuse(.notPermitted, "not permitted") }
        guard !request.requiresGPU || configuration.supportsBackgroundGPU else {
            return refuse(.notPermitted, "no background GPU")
        }
        guard scheduler.continuedRegistrations[request.identifier] != nil else {
            terminate(.uncaughtException, reason: .noLaunchHandlerRegistered)
            return refuse(.unavailable, "no launch handler registered")
        }
        guard hasRoomForContinuedProcessing else {
            guard request.strategy == .queue else { return refuse(.immediateRunIneligible, "no room") }
            scheduler.continuedQueue.append(request)
            record(.continuedProcessingSubmitted(identifier: request.identifier, queued: true))
            return .success(nil)
        }
        record(.continuedProcessingSubmitted(identifier: request.identifier, queued: false))
        return .success(startContinuedProcessing(request.identifier))
    }

    /// Now, when a queued job can start.
    var continuedLaunchDue: TimeInterval? {
        !scheduler.continuedQueue.isEmpty && hasRoomForContinuedProcessing ? now : nil
    }

    /// The next queued job, if there is room for it now.
    mutating func launchQueuedContinuedProcessing() -> ContinuedLaunchDue? {
        guard !scheduler.continuedQueue.isEmpty, hasRoomForContinuedProcessing, termination == nil else { return nil }
        return startContinuedProcessing(scheduler.continuedQueue.removeFirst().identifier)
    }

    private mutating func startContinuedProcessing(_ identifier: String) -> ContinuedLaunchDue? {
        guard let registration = scheduler.continuedRegistrations[identifier] else { return nil }
        let number = scheduler.nextTask
        scheduler.nextTask += 1
        var launched = SimulatedScheduler.Launched(
            identifier: identifier, isProcessing: true,
            expiresAt: now + Self.seconds(configuration.continuedProcessingStallTime))
        launched.isContinued = true
        scheduler.running[number] = launched
        record(.scheduledTaskLaunched(identifier: identifier))
        return ContinuedLaunchDue(number: number, identifier: identifier, launchHandler: registration.launchHandler)
    }

    /// A continued-processing job reported progress: it is not stalled.
    mutating func noteContinuedProgress(_ number: Int, completed: Int64, total: Int64) {
        guard let task = scheduler.running[number], task.isContinued, !task.expired, termination == nil else { return }
        scheduler.running[number]?.expiresAt = now + Self.seconds(configuration.continuedProcessingStallTime)
        record(.continuedProcessingProgress(identifier: task.identifier, completed: completed, total: total))
    }
}
