/// What a backend tells this package's engine beyond the seam's three calls: where each task was begun, which ends are
/// the deinit safety net's, and a clock of its own. The package's own backends fill it in: the simulator (so its
/// termination record names the lines that leaked, and task ages run in its virtual time) and `DiagnosingBackend` (in
/// `BackgroundTaskDiagnostics`, so its report is keyed by call site). Opaque on purpose: your backends keep the
/// default, `nil`, and lose nothing. Asking for it is a plain protocol call returning one reference, not a dynamic
/// cast: the engine asks on every begin at no measurable cost.
public final class BackgroundTaskBackendHooks: Sendable {
    /// The backend, when it wants call sites and safety-net ends. Unowned: whoever holds the hooks (an engine, a task
    /// record, the backend itself) holds the backend too, so it outlives every use, and a strong reference would make a
    /// cycle in backends that keep their hooks. (Unchecked gained nothing measurable: callgrind, 2026-11-25.)
    package unowned let callSiteAware: (any CallSiteAwareBackend)?
    package let clock: BackendClock?  // the backend's own clock (the simulator's virtual time), if it has one
    /// How a handler called off the main thread gets work onto the main actor; `nil`: `DispatchQueue.main`. The
    /// simulator runs the work on the main thread waiting for the handler, as a device's free main thread would.
    package let mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    /// The longest a manager waits, in real time, for a begin in flight on another thread before going on without it (1
    /// s otherwise); `nil`: no limit of the backend's. On a device a begin is in flight for microseconds; on the
    /// simulator only while a test holds it, which a wait cannot end.
    package let inFlightBeginWaitLimit: Double?
    /// How long an expiry waits, in real time, for a cancelled body off the main actor to return (``WindDown``),
    /// instead of its limit and the expiry's shared allowance, which are a device's; `nil`: those. The simulator's
    /// virtual time stands still meanwhile, and a loaded test machine may take longer than a device to unwind.
    package let windDownRealTimeLimit: Double?
    /// The simulated system this backend's assertions live on (a simulator), whose expiries a coalescing manager's
    /// linger must respect; `nil`: the process's, as on a device.
    package let system: ObjectIdentifier?

    package init(
        callSiteAware: (any CallSiteAwareBackend)?,
        clock: BackendClock?,
        mainActorHop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        inFlightBeginWaitLimit: Double? = nil,
        windDownRealTimeLimit: Double? = nil,
        system: ObjectIdentifier? = nil
    ) {
        self.callSiteAware = callSiteAware
        self.clock = clock
        self.mainActorHop = mainActorHop
        self.inFlightBeginWaitLimit = inFlightBeginWaitLimit
        self.windDownRealTimeLimit = windDownRealTimeLimit
        self.system = system
    }
}

extension BackgroundTaskBackend {
    /// `nil`: no hooks; the engine uses the three ``BackgroundTaskBackend`` requirements and the monotonic clock.
    public var engineHooks: BackgroundTaskBackendHooks? { nil }
}
