import BackgroundTaskKit
import Foundation

/// Shaped like `UIApplication` as some SDK printouts show it: the handler spelled
/// `(@MainActor () -> Void)?`, without `@Sendable`. Under SE-0434 that is the same type, and the empty
/// conformance at the bottom proves the mirror accepts either spelling.
@MainActor
final class StandInUnannotatedHandlerApplication {
    nonisolated private let ended = Locked<[StandInTaskIdentifier]>([])

    nonisolated init() {}

    nonisolated var backgroundTimeRemaining: TimeInterval { 12 }

    nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor () -> Void)? = nil
    ) -> StandInTaskIdentifier {
        StandInTaskIdentifier(rawValue: 7)
    }

    nonisolated func endBackgroundTask(_ identifier: StandInTaskIdentifier) {
        ended.withLock { $0.append(identifier) }
    }

    /// Every identifier passed to `endBackgroundTask`, in order.
    nonisolated var endedIdentifiers: [StandInTaskIdentifier] { ended.value }
}

extension StandInUnannotatedHandlerApplication: ApplicationBackgroundTasking {}
