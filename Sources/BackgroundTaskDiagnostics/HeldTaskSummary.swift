@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

/// One running task whose assertion was granted, as a flight recorder's snapshot keeps it: what a
/// ledger's owner (a diagnosing backend, a tracer) hands to `BackgroundTaskFieldTelemetry`.
package struct HeldTaskSummary: Sendable {
    /// Where it was begun: a source line, or the calling image and symbol.
    package var callSite: BackgroundTaskCallSite
    /// Its name, cut to the length asked for.
    package var name: String?
    /// Seconds it has been held.
    package var age: Double
    /// Whether its expiration handler was called.
    package var expiryStarted: Bool
    /// Whether its expiration handler returned while it was still held.
    package var handlerReturned: Bool
}
