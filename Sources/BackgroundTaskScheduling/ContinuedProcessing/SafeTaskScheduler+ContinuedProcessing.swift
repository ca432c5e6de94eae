import BackgroundTaskKit
import Foundation

extension SafeTaskScheduler {
    /// Runs a person-started job (an export, an upload) as a continued-processing task the system shows in a Live
    /// Activity (iOS 26), or, where that cannot be, under an ordinary background task: the same `work`, the same
    /// cancellation.
    ///
    /// Call it in the foreground, as the result of the person's action: it registers the request's identifier,
    /// submits the request and waits for the system to start it (at once, or later with the `.queue` strategy), then
    /// runs `work` in the caller's isolation, completing the system's task exactly once: successfully when `work`
    /// returns, unsuccessfully when it throws or is stopped.
    /// ```swift
    /// Button("Export") {
    ///     Task {
    ///         let request = ContinuedProcessingRequest(
    ///             identifier: ContinuedProcessingRequest.uniqueIdentifier(prefix: "com.example.app.export"),
    ///             title: "Exporting “Holiday”", subtitle: "Starting")
    ///         try await SafeTaskScheduler.shared.runContinuedProcessing(request) { progress in
    ///             try await exporter.export(movie) { done, total in progress.update(completed: done, of: total) }
    ///         }
    ///     }
    /// }
    /// ```
    /// **Falling back.** Before iOS 26, where `BGContinuedProcessingTask` does not exist, when the request needs the
    /// GPU and the device has none for background work, and when registration or submission is refused (not
    /// permitted, `.fail` with no room, submitted from the background), `work` runs under `withBackgroundTask` instead,
    /// named by the title: about 30 s of background time, cancelled on expiry. `progress.runsInLiveActivity` tells
    /// which. With `fallsBackToBackgroundTask: false` the refusal is thrown instead.
    ///
    /// **Stopped.** The person can stop the job from the Live Activity, and the system expires jobs that look stalled
    /// or when conditions change; the app cannot tell these apart (Apple developer forums thread 818623), and neither
    /// does this method: either way `work` is cancelled, `onExpiration` runs on the main actor, the task is completed
    /// unsuccessfully once `work` returned or `windDownLimit` passed, and the call throws what `work` throws
    /// (typically `CancellationError`).
    ///
    /// - Parameters:
    ///   - request: The job's identifier, title, subtitle, strategy and resources.
    ///   - fallsBackToBackgroundTask: Run `work` under an ordinary background task when the job cannot be a continued-
    ///     processing task. Default `true`.
    ///   - windDownLimit: When stopped, how long the completion waits at most for the cancelled `work` to return, in
    ///     seconds (default 0.5; `0` for no wait; at most 2).
    ///   - onExpiration: Called on the main actor when the job is stopped, after `work` was cancelled.
    ///   - isolation: The caller's isolation, inherited by `work`.
    ///   - fileID: Where the job is started, for diagnostics; leave the default.
    ///   - line: Where the job is started, for diagnostics; leave the default.
    ///   - function: Where the job is started, for diagnostics; leave the default.
    ///   - work: The job, given the progress to report.
    /// - Returns: What `work` returns.
    /// - Throws: What `work` throws; `CancellationError` if the caller was cancelled while the request was queued;
    ///   ``TaskSchedulingError`` for an empty identifier, or a refusal without the fallback.
    public func runContinuedProcessing<Result>(
        _ request: ContinuedProcessingRequest,
        fallsBackToBackgroundTask: Bool = true,
        windDownLimit: Double = 0.5,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        work: (ContinuedProcessingProgress) async throws -> Result
    ) async throws -> Result {
        let started = Swift.Result { () throws(TaskSchedulingError) -> ContinuedLaunch in
            try startContinuedProcessing(
                request, windDownLimit: windDownLimit, onExpiration: onExpiration, fileID: fileID, line: line,
                function: function)
        }
        switch started {
        case .success(let launch):
            let identifier = request.identifier
            let launched = try await launch.wait(onCancel: { [backend] in backend.cancel(identifier: identifier) })
            let progress = ContinuedProcessingProgress(task: launched.task)
            return try await AsyncBody.run(launched.record.value, isolation: isolation) {
                () async throws -> Result in
                let value = try await work(progress)
                launched.backend.markSucceeded()
                return value
            }
        case .failure(let refusal):
            guard fallsBackToBackgroundTask, refusal.code != .invalidIdentifier else { throw refusal }
            let progress = ContinuedProcessingProgress(task: nil)
            return try await withBackgroundTask(
                request.title, backend: fallbackBackend, onExpiration: onExpiration, windDownLimit: windDownLimit,
                isolation: isolation, fileID: fileID, line: line, function: function
            ) { () async throws -> Result in try await work(progress) }
        }
    }

    /// Registers the request's identifier and submits it; the launch, when it comes, is begun on the engine in the
    /// launch handler and handed to whoever waits on the returned ``ContinuedLaunch``.
    private func startContinuedProcessing(
        _ request: ContinuedProcessingRequest,
        windDownLimit: Double,
        onExpiration: (@MainActor @Sendable () -> Void)?,
        fileID: String,
        line: Int,
        function: String
    ) throws(TaskSchedulingError) -> ContinuedLaunch {
        try Self.checkIdentifier(request.identifier)
        guard let continued = backend.continuedProcessing else {
            throw TaskSchedulingError(.unavailable, identifier: request.identifier, detail: "needs iOS 26")
        }
        if request.requiresGPU, !continued.supportsBackgroundGPU {
            throw TaskSchedulingError(.notPermitted, identifier: request.identifier, detail: "no background GPU here")
        }
        let launch = ContinuedLaunch()
        let hooks = backend.launchedTaskHooks
        try claim(request.identifier, beforeLaunchOnly: false) { () throws(TaskSchedulingError) in
            try continued.registerContinuedProcessing(identifier: request.identifier) { task in
                let backend = LaunchedTaskBackend(task, hooks: hooks, beforeCompletion: nil)
                let record = AsyncBody.begin(
                    request.title, backend: backend, cleanup: onExpiration, onlyInBackground: false,
                    windDownLimit: windDownLimit, fileID: fileID, line: line, function: function)
                launch.deliver(ContinuedLaunch.Launched(record: HandedOver(record), backend: backend, task: task))
            }
        }
        try continued.submitContinuedProcessing(request)
        return launch
    }
}
