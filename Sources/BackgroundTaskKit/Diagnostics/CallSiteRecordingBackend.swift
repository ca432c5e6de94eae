/// A backend that wants to know which call site began each assertion it granted (the simulator, so
/// that its termination record can name the lines that leaked).
package protocol CallSiteRecordingBackend: BackgroundTaskBackend {
    /// Called once, right after `identifier` was granted for a task begun at `callSite`.
    func recordCallSite(_ callSite: BackgroundTaskCallSite, for identifier: BackgroundTaskIdentifier)
}
