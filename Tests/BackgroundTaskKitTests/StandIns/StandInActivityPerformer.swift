import BackgroundTaskKit
import Foundation

/// Shaped like `ProcessInfo`'s `performExpiringActivity(withReason:using:)`: records each activity's
/// block and runs invocations of it on background threads, as the system's concurrent queue does.
///
/// The first invocation is automatic (`expired == false` or `true`, on a new thread) or left to the
/// test; the test triggers any later one with ``invoke(_:expired:)``.
final class StandInActivityPerformer: ExpiringActivityPerforming, Sendable {
    /// What the performer does when an activity starts.
    enum FirstInvocation: Sendable {
        /// Invokes the block with `expired == false`: the assertion is granted.
        case grant
        /// Invokes the block with `expired == true`: no assertion could be taken.
        case refuse
        /// Does not invoke the block; the test may do it later.
        case none
    }

    /// One invocation of an activity's block, running on its own thread.
    final class Invocation: Sendable {
        /// The value passed to the block.
        let expired: Bool
        /// Raised when the block has returned.
        let returned = Signal()

        init(expired: Bool) {
            self.expired = expired
        }
    }

    private struct Activity {
        let reason: String
        let block: @Sendable (Bool) -> Void
        var invocations: [Invocation] = []
    }

    private let firstInvocation: FirstInvocation
    private let activities = Locked<[Activity]>([])

    init(firstInvocation: FirstInvocation = .grant) {
        self.firstInvocation = firstInvocation
    }

    // MARK: - ProcessInfo's declaration

    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        let index = activities.withLock { activities in
            activities.append(Activity(reason: reason, block: block))
            return activities.count - 1
        }
        switch firstInvocation {
        case .grant: invoke(index, expired: false)
        case .refuse: invoke(index, expired: true)
        case .none: break
        }
    }

    // MARK: - Test controls

    /// The reason of every activity, in order.
    var reasons: [String] { activities.withLock { $0.map(\.reason) } }

    /// The invocations of activity `index` so far, in order.
    func invocations(of index: Int) -> [Invocation] {
        activities.withLock { $0[index].invocations }
    }

    /// The first invocation of activity `index`, if any.
    func firstInvocation(of index: Int) -> Invocation? {
        invocations(of: index).first
    }

    /// Invokes the block of activity `index` on a new thread.
    ///
    /// - Returns: The invocation, whose ``Invocation/returned`` is raised when the block returns.
    @discardableResult
    func invoke(_ index: Int, expired: Bool) -> Invocation {
        let invocation = Invocation(expired: expired)
        let block = activities.withLock { activities in
            activities[index].invocations.append(invocation)
            return activities[index].block
        }
        Thread {
            block(expired)
            invocation.returned.raise()
        }.start()
        return invocation
    }
}
