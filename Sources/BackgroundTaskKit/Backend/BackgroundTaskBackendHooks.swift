/// What a backend tells this package's engine beyond the three calls of the seam: where each task
/// was begun, which ends are the deinit safety net's, and a clock of its own.
///
/// The package's own backends fill it in: the simulator (so that its termination record names the
/// lines that leaked, and task ages run in its virtual time) and ``DiagnosingBackend`` (so that its
/// report is keyed by call site). It is opaque on purpose: your backends keep the default, `nil`,
/// and lose nothing.
///
/// Asking a backend for its hooks is a plain protocol call returning one reference, not a dynamic
/// cast, so the engine can ask on every begin at no cost worth measuring.
public final class BackgroundTaskBackendHooks: Sendable {
    /// The backend, when it wants call sites and safety-net ends. Unowned, and unchecked: whoever
    /// holds the hooks holds the backend too (an engine, a task record, the backend itself), so the
    /// backend outlives every use, and a strong reference would make a cycle in the backends that
    /// keep their hooks.
    package unowned(unsafe) let callSiteAware: (any CallSiteAwareBackend)?
    /// The backend's own clock (the simulator's virtual time), if it has one.
    package let clock: BackendClock?
    /// How an expiration handler called off the main thread gets work onto the main actor; `nil`:
    /// `DispatchQueue.main`. The simulator runs the work on the main thread that is waiting for the
    /// handler, as a device's free main thread would.
    package let mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

    package init(
        callSiteAware: (any CallSiteAwareBackend)?,
        clock: BackendClock?,
        mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
    ) {
        self.callSiteAware = callSiteAware
        self.clock = clock
        self.mainActorHop = mainActorHop
    }
}

extension BackgroundTaskBackend {
    /// `nil`: no hooks. The engine calls the three requirements of ``BackgroundTaskBackend`` and
    /// measures time on the system's monotonic clock.
    public var engineHooks: BackgroundTaskBackendHooks? { nil }
}
