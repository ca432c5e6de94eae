import BackgroundTaskKit
import Foundation

/// The simulator plays `ProcessInfo` too: app-extension and watchOS code that calls
/// `performExpiringActivity(withReason:using:)` (directly, or through ``ExpiringActivityBackend``) is
/// tested the same way as app code.
///
/// As Apple documents it: the block runs asynchronously on another thread. When the system can take
/// an assertion, the block is called with `expired == false` and the assertion is held while that
/// first invocation runs (the block must not return before its work is done); it is ended when the
/// first invocation returns. When time runs out while it still runs, the block is called a second
/// time, with `expired == true`, on another thread, concurrently with the first; the first must then
/// return promptly, or the app is terminated with the assertion held. When no assertion can be taken
/// (suspended or terminated app, an injected refusal, or ``SimulatorConfiguration/expiringActivityLimit``
/// activities already running), the block is called once, with `expired == true`.
///
/// The assertion is named by the reason, so console messages and termination records show it.
extension BackgroundTaskSimulator: ExpiringActivityPerforming, MainActorHopping {
    /// Runs `block` as `ProcessInfo` would (see above).
    ///
    /// ```swift
    /// let simulator = BackgroundTaskSimulator()
    /// let saver = ExtensionSaver(activities: simulator)   // calls performExpiringActivity
    /// saver.save()
    /// try await simulator.waitForBegins(1)
    /// simulator.enterBackground()
    /// simulator.advance(by: 60)
    /// try simulator.expectNoLeaks()
    /// ```
    ///
    /// - Parameters:
    ///   - reason: The activity's reason: the simulated assertion's name.
    ///   - block: Called with `false` first when granted, with `true` when time runs out (or at once
    ///     when not granted).
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        let activity = SimulatedActivity()
        let admitted = activities.admit(limit: state.withLock { $0.configuration.expiringActivityLimit })
        let identifier: BackgroundTaskIdentifier?
        if admitted {
            identifier = systemBegin(named: reason, callSite: nil) { [weak self] in
                self?.expire(activity, block: block)
            }
            if identifier == nil { activities.leave() }
        } else {
            state.withLock { $0.record(.notGranted(name: reason)) }
            identifier = nil
        }
        guard let identifier else {
            Thread { block(true) }.start()
            return
        }
        Thread { [self] in
            block(false)
            // The first invocation returned: the system ends the assertion.
            state.withLock { $0.end(identifier) }
            activities.leave()
            activity.firstInvocationReturned()
        }
        .start()
    }

    /// The assertion's expiration handler: calls the block with `true` on another thread, and waits
    /// (in real time) for it and for the first invocation to return, so that the system looks at the
    /// assertion only once the app had its chance to end the activity.
    /// (Called on the main thread, or off it under ``SimulatorFault/handlerOffMainActor``.)
    private nonisolated func expire(_ activity: SimulatedActivity, block: @escaping @Sendable (Bool) -> Void) {
        guard !activity.hasReturned else { return }
        let timeout = offMainHandlerTimeout
        let grace = min(SimulatedActivity.returnGrace, timeout)
        guard MainActorContext.isCurrent else {
            // Already off the main thread: the main thread is free to run what the app sends it.
            block(true)
            activity.waitForFirstInvocation(grace: grace)
            return
        }
        // The main thread runs what the activity's threads send to the main actor meanwhile.
        _ = mainThreadPump.wait(
            for: {
                block(true)
                activity.waitForFirstInvocation(grace: grace)
            },
            timeout: timeout + grace
        )
    }

    /// The simulator's main-actor hop, for ``ExpiringActivityBackend``'s handlers.
    package var mainActorHop: @Sendable (@escaping @Sendable () -> Void) -> Void {
        { [mainThreadPump] work in mainThreadPump.hop(work) }
    }
}

/// The running `performExpiringActivity` activities, against the limit.
final class SimulatedActivities: Sendable {
    private let running = Locked(0)

    /// Admits one more activity unless `limit` are running (a limit of 0 or less admits none).
    func admit(limit: Int) -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// An activity's first invocation returned (or it was not granted after all).
    func leave() {
        running.withLock { $0 -= 1 }
    }
}

/// One granted activity: whether its invocations have returned.
final class SimulatedActivity: @unchecked Sendable {  // state only under `condition`
    /// How long, in real time, the first invocation may take to return once the expired invocation
    /// has (it is typically waiting on a semaphore the expired invocation signals, or for an
    /// expiration handler the main thread runs).
    static let returnGrace: TimeInterval = 1

    private let condition = NSCondition()
    private var firstReturned = false

    var hasReturned: Bool {
        condition.lock()
        defer { condition.unlock() }
        return firstReturned
    }

    func firstInvocationReturned() {
        condition.lock()
        firstReturned = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits, at most `grace` of real time, until the first invocation has returned.
    func waitForFirstInvocation(grace: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: grace)
        while !firstReturned, condition.wait(until: deadline) {}
    }
}
