import BackgroundTaskKit
import Foundation

extension BackgroundTaskSimulator {
    /// The longest stretch of virtual time ``settle(within:)`` lets pass by default: 10 s, a manager's longest linger
    /// (`BackgroundTaskManager.Configuration.maximumLinger`).
    public static let defaultSettlingTime: TimeInterval = 10

    /// The most timers one ``settle(within:)`` plays.
    static let maximumTimerFiringsPerSettle = 1_000

    /// Lets the work the app has already set going finish, so that a leak check at the end of a test sees only what
    /// would stay held: call it before ``expectNoLeaks()`` (the `.backgroundTaskSimulator` trait does).
    ///
    /// Every task may have ended while an assertion is still held for a moment: a coalescing
    /// `BackgroundTaskManager`'s shared assertion outlives its last task by its `linger` (0.5 s by default), and a
    /// renewal hands it over on a timer. On a device that time passes by itself; on the simulator it passes only when
    /// the test moves the clock. So, while an assertion is held, this:
    ///
    /// 1. lets the calls held by ``SimulatorFault/holdOffMainCalls(_:)`` and begins and ends in flight on other threads
    ///    reach the system, and runs what they sent to the main actor;
    /// 2. plays the app's timers due within `limit` seconds of virtual time, one by one, as ``advance(by:)-(TimeInterval)``
    ///    would, but never into an expiry, a watchdog deadline or a scheduled launch: it stops before those, so the
    ///    check that follows sees a leak as a leak, not as a task its handler ended.
    ///
    /// It returns as soon as nothing is held, and in any case after 1,000 timers or 5 s of real time. An assertion no timer ends (a lost `end()`, a raw begin without its end)
    /// stays held, and ``expectNoLeaks()`` names it.
    ///
    /// ```swift
    /// @MainActor @Test func uploadsEndTheirTasks() async throws {
    ///     let simulator = BackgroundTaskSimulator()
    ///     let uploader = Uploader(manager: BackgroundTaskManager(backend: simulator))
    ///     try await uploader.uploadAll()
    ///     await simulator.settle()  // the manager's shared assertion lingers 0.5 s after the last upload
    ///     try simulator.expectNoLeaks()
    /// }
    /// ```
    ///
    /// - Parameter limit: The most virtual time to let pass, in seconds; default ``defaultSettlingTime``. `0`,
    ///   negative (`-infinity` too) or NaN lets no time pass (calls in flight still land); infinity counts as the
    ///   default.
    @MainActor public func settle(within limit: TimeInterval = defaultSettlingTime) async {
        let limit = limit.isNaN || limit <= 0 ? 0 : (limit.isFinite ? limit : Self.defaultSettlingTime)
        let end = now + limit
        let realTimeDeadline = Date(timeIntervalSinceNow: Self.settlingRealTimeLimit)
        // Begins and ends held at the gate or on their way land first, even when nothing is held yet.
        await landCallsInFlight(until: realTimeDeadline)
        // An end on its way from another thread lands in microseconds on a device: a moment of real time.
        var grace = Date(timeIntervalSinceNow: 0.2)
        var firings = 0  // a timer that keeps scheduling itself at once cannot hold the test for long
        while !outstanding.isEmpty, firings < Self.maximumTimerFiringsPerSettle, Date() < realTimeDeadline {
            await landCallsInFlight(until: realTimeDeadline)
            if let target = state.withLock({ $0.settlingTarget(within: max(end - $0.now, 0)) }) {
                firings += max(
                    advance(
                        by: max(target - now, 0), firingLimit: Self.maximumTimerFiringsPerSettle - firings,
                        recordsLimit: false), 1)
                grace = Date(timeIntervalSinceNow: 0.2)
                continue
            }
            if outstanding.isEmpty || Date() >= grace { return }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    /// The most real time one ``settle(within:)`` takes, in seconds.
    static let settlingRealTimeLimit: TimeInterval = 5

    /// Releases the held calls and, until they and the work hopped to the main actor are done or `deadline` passes,
    /// runs that work, yielding the main actor between rounds.
    @MainActor private func landCallsInFlight(until deadline: Date) async {
        callGate.releaseAll()
        repeat {
            mainThreadPump.runQueuedWork()
            if callGate.allLanded, !mainThreadPump.hasPendingWork { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        } while Date() < deadline
    }
}
