import BackgroundTaskKit
import Foundation

/// Shaped like `ProcessInfo`'s `beginActivity(options:reason:)` and `endActivity(_:)` on macOS,
/// with a nested `ActivityOptions` as `ProcessInfo` has; records every call.
final class StandInActivityManager: ProcessActivityManaging, Sendable {
    /// Stands in for `ProcessInfo.ActivityOptions`.
    struct ActivityOptions: OptionSet, Sendable {
        let rawValue: UInt64

        static let suddenTerminationDisabled = ActivityOptions(rawValue: 1 << 14)
        static let automaticTerminationDisabled = ActivityOptions(rawValue: 1 << 15)
        static let userInitiated = ActivityOptions(rawValue: 0x00FF_FFFF)
    }

    /// One call of `beginActivity`.
    struct BegunActivity: Sendable {
        let token: ObjectIdentifier
        let options: ActivityOptions
        let reason: String
    }

    private struct State {
        var begun: [BegunActivity] = []
        var ended: [ObjectIdentifier] = []
        // Kept alive so that no two tokens ever share an ObjectIdentifier.
        var tokens: [NSObject] = []
    }

    private let state = Locked(State())

    // MARK: - ProcessInfo's declarations

    func beginActivity(options: ActivityOptions = [], reason: String) -> any NSObjectProtocol {
        let token = NSObject()
        state.withLock { state in
            state.tokens.append(token)
            state.begun.append(BegunActivity(token: ObjectIdentifier(token), options: options, reason: reason))
        }
        return token
    }

    func endActivity(_ activity: any NSObjectProtocol) {
        state.withLock { $0.ended.append(ObjectIdentifier(activity)) }
    }

    // MARK: - Test controls

    /// Every `beginActivity` call, in order.
    var begun: [BegunActivity] { state.withLock { $0.begun } }

    /// The token of every `endActivity` call, in order.
    var ended: [ObjectIdentifier] { state.withLock { $0.ended } }
}
