/// A backend that wants to know where each assertion is begun and which ends are the deinit safety net's: the simulator
/// (so its termination record names the lines that leaked) and `DiagnosingBackend` (so its report is keyed by call
/// site). The engine calls these instead of the plain requirements when its backend conforms.
package protocol CallSiteAwareBackend: BackgroundTaskBackend, AnyObject {
    /// Begins an assertion for a task begun at `callSite`.
    func beginBackgroundTask(
        named name: String?,
        callSite: BackgroundTaskCallSite,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier?
    /// Ends an assertion; `bySafetyNet` when its owner let go of it while it ran (a leak caught).
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool)
    /// A coalesced task was let go of while running and ended by the safety net (no end reaches the backend for it).
    func sharedTaskEndedBySafetyNet(named name: String?, callSite: BackgroundTaskCallSite)
}

extension CallSiteAwareBackend {
    package func sharedTaskEndedBySafetyNet(named name: String?, callSite: BackgroundTaskCallSite) {}
}
