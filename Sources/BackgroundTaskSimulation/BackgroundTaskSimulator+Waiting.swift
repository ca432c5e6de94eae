import BackgroundTaskKit
import Foundation

extension BackgroundTaskSimulator {
    // MARK: - Duration forms

    /// `advance(by:)` with a `Duration`: `simulator.advance(by: .seconds(30))`.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @MainActor public func advance(by duration: Duration) {
        advance(by: duration.simulatorSeconds)
    }

    /// `spend(_:)` with a `Duration`: `simulator.spend(.milliseconds(1500))`.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @MainActor public func spend(_ duration: Duration) {
        spend(duration.simulatorSeconds)
    }

    /// `schedule(after:_:)` with a `Duration`.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public nonisolated func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        schedule(after: delay.simulatorSeconds, work)
    }

    // MARK: - Waiting for work on other threads

    /// Waits, in real time, until at least `count` assertions have been begun in total (granted or
    /// refused), for code that begins its task on a queue or thread of its own.
    ///
    /// ```swift
    /// cache.trim()                                  // begins on the cache's own queue
    /// try await simulator.waitForBegins(1)
    /// simulator.enterBackground()
    /// simulator.advance(by: 60)
    /// try simulator.expectNoLeaks()
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many begins to wait for, counted from the simulator's creation. `0` or less
    ///     returns at once.
    ///   - timeout: The longest real time to wait, in seconds. Default 5.
    /// - Returns: The assertions granted so far, in begin order.
    /// - Throws: ``SimulatorExpectationFailure`` when fewer begins came in time.
    @discardableResult
    public func waitForBegins(_ count: Int = 1, timeout: TimeInterval = 5) async throws -> [SimulatedAssertion] {
        let deadline = Date(timeIntervalSinceNow: timeout.isNaN ? 0 : timeout)
        while beginCount < count {
            guard Date() < deadline || beginCount >= count else {
                throw failure(
                    "Expected \(count) begin(s) within \(formatSeconds(timeout)) s, but \(beginCount) came",
                    isExpectation: false)
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        return assertionHistory.map(\.assertion)
    }

    // MARK: - Launched scheduled tasks

    /// Waits, in real time, until the launched task of `identifier` has been completed (`setTaskCompleted(success:)`,
    /// or marked complete by the system) `count` times in all, and returns whether that completion was a success: for
    /// a `SafeTaskScheduler` whose async work runs on after ``runScheduledTask(_:)`` returns.
    ///
    /// ```swift
    /// try scheduler.register("com.example.refresh") { try await feed.refresh() }
    /// simulator.finishLaunching()
    /// try scheduler.submit(.appRefresh("com.example.refresh"))
    /// simulator.runScheduledTask("com.example.refresh")      // the work starts and runs on
    /// #expect(try await simulator.waitForScheduledTaskCompletion("com.example.refresh"))
    /// ```
    ///
    /// While it waits, the main actor is free for the work's hops to it.
    ///
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - count: Which completion to wait for, counted from the simulator's creation; default 1. `0` or less returns
    ///     the latest completion's success at once (`false` when there is none).
    ///   - timeout: The longest real time to wait, in seconds. Default 5.
    /// - Returns: The `success` of that completion.
    /// - Throws: ``SimulatorExpectationFailure`` when fewer completions came in time.
    @discardableResult
    public func waitForScheduledTaskCompletion(_ identifier: String, count: Int = 1, timeout: TimeInterval = 5)
        async throws -> Bool
    {
        let deadline = Date(timeIntervalSinceNow: timeout.isNaN ? 0 : timeout)
        while true {
            let completions = scheduledTaskCompletions(identifier)
            if count <= 0 { return completions.last ?? false }
            if completions.count >= count { return completions[count - 1] }
            guard Date() < deadline else {
                throw failure(
                    "Expected \(count) completion(s) of the launched task \(identifier) within \(formatSeconds(timeout)) "
                        + "s, but \(completions.count) came", isExpectation: false)
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// The `success` of each completion of `identifier`'s launched tasks, in order.
    private func scheduledTaskCompletions(_ identifier: String) -> [Bool] {
        state.withLock { $0.completionsRecorded[identifier] ?? [] }
    }

    // MARK: - Held calls

    /// How many calls ``SimulatorFault/holdOffMainCalls(_:)`` holds now.
    public var heldCallCount: Int { callGate.heldCount }

    /// Lets every call held by ``SimulatorFault/holdOffMainCalls(_:)`` go on to the system.
    public func releaseHeldCalls() {
        callGate.releaseAll()
    }

    /// Waits, in real time, until at least `count` calls are held by
    /// ``SimulatorFault/holdOffMainCalls(_:)``: the app's other thread has reached the system call.
    ///
    /// ```swift
    /// let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
    /// // … begin on the main thread, enter the background …
    /// queue.async { uploader.finish() }           // checks the identifier, then ends it: held
    /// try await simulator.waitForHeldCalls(1)
    /// simulator.advance(by: 60)                   // the handler runs between the check and the end
    /// try simulator.expectNoLeaks()
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many held calls to wait for.
    ///   - timeout: The longest real time to wait, in seconds. Default 5.
    /// - Throws: ``SimulatorExpectationFailure`` when fewer calls were held in time.
    public func waitForHeldCalls(_ count: Int = 1, timeout: TimeInterval = 5) async throws {
        let deadline = Date(timeIntervalSinceNow: timeout.isNaN ? 0 : timeout)
        while callGate.heldCount < count {
            guard Date() < deadline else {
                throw failure(
                    "Expected \(count) held call(s) within \(formatSeconds(timeout)) s, but \(callGate.heldCount) were held",
                    isExpectation: false)
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// Begins made so far, granted or refused.
    private var beginCount: Int {
        state.withLock { $0.beginsRecorded }
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
    /// Seconds as a `TimeInterval`.
    var simulatorSeconds: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
