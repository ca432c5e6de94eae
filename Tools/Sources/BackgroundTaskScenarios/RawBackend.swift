import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskSimulation

/// What the scenarios' hand-written flows call instead of `UIApplication`: the same two raw calls,
/// passed to a ``DiagnosingBackend`` over the simulator with the line that made them, so that
/// `bgtask simulate --explain` can show the report that points at the line that leaks.
///
/// The call-site arguments are defaulted, so a flow reads like raw UIKit code. Once the simulator has
/// terminated the app, calls are dropped: a killed process makes none, so the report keeps the state
/// the system killed it in.
@MainActor
public struct RawBackend: Sendable {
    /// The diagnosing backend every call goes through; its report is the explanation.
    public let diagnostics: DiagnosingBackend
    private let simulator: BackgroundTaskSimulator

    /// Wraps `simulator` (or `backend`, a backend over it) in a new ``DiagnosingBackend``.
    public init(_ simulator: BackgroundTaskSimulator, through backend: (any BackgroundTaskBackend)? = nil) {
        self.simulator = simulator
        diagnostics = DiagnosingBackend(wrapping: backend ?? simulator)
    }

    /// `beginBackgroundTask(withName:expirationHandler:)`, recording where it was called.
    func beginBackgroundTask(
        named name: String?,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        guard simulator.termination == nil else { return nil }
        return diagnostics.beginBackgroundTask(
            named: name,
            callSite: BackgroundTaskCallSite(fileID: fileID, line: line, function: function),
            expirationHandler: expirationHandler
        )
    }

    /// `endBackgroundTask(_:)`.
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        guard simulator.termination == nil else { return }
        diagnostics.endBackgroundTask(identifier)
    }
}
