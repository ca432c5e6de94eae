import BackgroundTaskKit
import Foundation

extension BackgroundTaskSimulator {
    // MARK: - Duration forms

    /// `advance(by:)` with a `Duration`: `simulator.advance(by: .seconds(30))`.
    @MainActor public func advance(by duration: Duration) {
        advance(by: duration.simulatorSeconds)
    }

    /// `spend(_:)` with a `Duration`: `simulator.spend(.milliseconds(1500))`.
    @MainActor public func spend(_ duration: Duration) {
        spend(duration.simulatorSeconds)
    }

    /// `schedule(after:_:)` with a `Duration`.
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
    ///   - timeout: The longest real time to wait. Default 5 s.
    /// - Returns: The assertions granted so far, in begin order.
    /// - Throws: ``SimulatorExpectationFailure`` when fewer begins came in time.
    @discardableResult
    public func waitForBegins(_ count: Int = 1, timeout: Duration = .seconds(5)) async throws -> [SimulatedAssertion] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while beginCount < count {
            guard clock.now < deadline || beginCount >= count else {
                throw SimulatorExpectationFailure(
                    message: "Expected \(count) begin(s) within \(timeout), but \(beginCount) came",
                    log: log,
                    assertions: assertionHistory
                )
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return assertionHistory.map(\.assertion)
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
    ///   - timeout: The longest real time to wait. Default 5 s.
    /// - Throws: ``SimulatorExpectationFailure`` when fewer calls were held in time.
    public func waitForHeldCalls(_ count: Int = 1, timeout: Duration = .seconds(5)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while callGate.heldCount < count {
            guard clock.now < deadline else {
                throw SimulatorExpectationFailure(
                    message: "Expected \(count) held call(s) within \(timeout), but \(callGate.heldCount) were held",
                    log: log,
                    assertions: assertionHistory
                )
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Begins made so far, granted or refused.
    private var beginCount: Int {
        state.withLock { state in
            state.log.reduce(0) { count, entry in
                switch entry.event {
                case .began, .notGranted: count + 1
                default: count
                }
            }
        }
    }
}

extension Duration {
    /// Seconds as a `TimeInterval`.
    var simulatorSeconds: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
