import BackgroundTaskKit

/// Where the test kit hears of each failing `expect…` helper, to attach the failure's timeline to the current test.
///
/// The simulator does not link Swift Testing (so that `bgtask` can use it); `BackgroundTaskKitTesting` installs the
/// handler when it loads.
package enum ExpectationFailureReporting {
    /// The handler, in a struct: a closure as a lock's state would grow by two thunks at every access.
    private struct Handler {
        var report: (@Sendable (SimulatorExpectationFailure) -> Void)?
    }

    private static let handler = Locked(Handler())

    /// Makes `report` the handler of every failure from now on (the last installed wins).
    package static func install(_ report: @escaping @Sendable (SimulatorExpectationFailure) -> Void) {
        handler.withLock { $0.report = report }
    }

    /// Passes `failure` to the handler, outside the lock.
    static func report(_ failure: SimulatorExpectationFailure) {
        let report = handler.withLock { $0.report }
        report?(failure)
    }
}
