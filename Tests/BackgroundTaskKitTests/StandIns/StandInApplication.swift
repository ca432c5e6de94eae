import BackgroundTaskKit
import Foundation

/// Shaped like `UIApplication`: a `@MainActor` class whose background-task members are
/// `nonisolated`, declared exactly as in the iOS 18 SDK, so the empty conformance at the bottom proves
/// that `extension UIApplication: ApplicationBackgroundTasking {}` compiles.
///
/// It grants identifiers from 40 up (distinct from the adapters' own counters), records every call,
/// and expires its tasks on the main actor when a test says so, as UIKit does.
@MainActor
final class StandInApplication {
    /// One call of `beginBackgroundTask`.
    struct BegunTask: Sendable {
        let identifier: StandInTaskIdentifier
        let name: String?
        let expirationHandler: (@MainActor @Sendable () -> Void)?
    }

    private struct Calls {
        var nextRawValue = 40
        var grantsAssertions = true
        var backgroundTimeRemaining = Double.greatestFiniteMagnitude
        var begun: [BegunTask] = []
        var ended: [StandInTaskIdentifier] = []
        var duringBegin: (@Sendable () -> Void)?
    }

    nonisolated private let state = Locked(Calls())
    /// The life-cycle state (`StandInApplication+State.swift`).
    var currentState = StandInApplication.State.active

    nonisolated init() {}

    // MARK: - UIApplication's declarations

    nonisolated var backgroundTimeRemaining: TimeInterval {
        state.withLock { $0.backgroundTimeRemaining }
    }

    nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> StandInTaskIdentifier {
        let (identifier, duringBegin) = state.withLock { state in
            let identifier: StandInTaskIdentifier
            if state.grantsAssertions {
                identifier = StandInTaskIdentifier(rawValue: state.nextRawValue)
                state.nextRawValue += 1
            } else {
                identifier = .invalid
            }
            state.begun.append(BegunTask(identifier: identifier, name: taskName, expirationHandler: handler))
            defer { state.duringBegin = nil }
            return (identifier, state.duringBegin)
        }
        duringBegin?()
        return identifier
    }

    nonisolated func beginBackgroundTask(
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> StandInTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    nonisolated func endBackgroundTask(_ identifier: StandInTaskIdentifier) {
        state.withLock { $0.ended.append(identifier) }
    }

    // MARK: - Test controls

    /// Every `beginBackgroundTask` call, in order.
    nonisolated var begun: [BegunTask] { state.withLock { $0.begun } }

    /// Every identifier passed to `endBackgroundTask`, in order.
    nonisolated var ended: [StandInTaskIdentifier] { state.withLock { $0.ended } }

    /// Whether `beginBackgroundTask` grants (`true`, the default) or returns `.invalid`.
    nonisolated func setGrantsAssertions(_ grants: Bool) {
        state.withLock { $0.grantsAssertions = grants }
    }

    /// Runs `body` inside the next `beginBackgroundTask`, before it returns (without the lock): a test
    /// places another thread's call exactly there.
    nonisolated func duringNextBegin(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.duringBegin = body }
    }

    /// Sets what `backgroundTimeRemaining` reports.
    nonisolated func setBackgroundTimeRemaining(_ seconds: TimeInterval) {
        state.withLock { $0.backgroundTimeRemaining = seconds }
    }

    /// Calls the handler of every granted task not ended yet, in begin order, as UIKit does at expiry.
    func expire() {
        let handlers = state.withLock { state in
            state.begun
                .filter { $0.identifier != .invalid && !state.ended.contains($0.identifier) }
                .compactMap(\.expirationHandler)
        }
        for handler in handlers {
            handler()
        }
    }
}

extension StandInApplication: ApplicationBackgroundTasking {}
