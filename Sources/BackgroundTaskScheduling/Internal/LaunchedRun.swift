import BackgroundTaskKit

/// One launch of a task registered with async work: begun on the engine at once, on the system's queue (so the
/// expiration handler is on the task before the launch handler returns), its work run later in a `Task`.
struct LaunchedRun: Sendable {
    private let record: HandedOver<AnyObject>

    init(
        _ identifier: String,
        backend: LaunchedTaskBackend,
        onExpiration: (@MainActor @Sendable () -> Void)?,
        windDownLimit: Double,
        fileID: String,
        line: Int,
        function: String
    ) {
        record = HandedOver(
            AsyncBody.begin(
                identifier, backend: backend, cleanup: onExpiration, onlyInBackground: false,
                windDownLimit: windDownLimit, fileID: fileID, line: line, function: function))
    }

    /// Runs `work` as the engine's async body (an expiry cancels it), then ends: the task completes. A thrown error
    /// is the completion's `success: false`, nothing more.
    func run(_ work: @Sendable () async throws -> Void) async {
        _ = try? await AsyncBody.run(record.value, isolation: nil, work)
    }
}
