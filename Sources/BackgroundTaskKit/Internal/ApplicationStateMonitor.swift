import Foundation

/// Reports an application's background state from its `applicationState` and its `NotificationCenter` notifications:
/// the ``ApplicationStateReporting`` of ``ApplicationBackend``.
final class ApplicationStateMonitor: ApplicationStateReporting {
    private let isInBackground: @MainActor @Sendable () -> Bool?
    private let names: @MainActor @Sendable () -> (enter: Notification.Name, leave: Notification.Name)

    init(
        isInBackground: @escaping @MainActor @Sendable () -> Bool?,
        names: @escaping @MainActor @Sendable () -> (enter: Notification.Name, leave: Notification.Name)
    ) {
        self.isInBackground = isInBackground
        self.names = names
    }

    func observeBackgroundState(
        _ handler: @escaping @MainActor @Sendable (Bool) -> Void
    ) -> ApplicationStateObservation {
        let tokens = Locked<[UncheckedSendableBox<any NSObjectProtocol>]?>([])
        let start: @MainActor @Sendable () -> Void = { [isInBackground, names] in
            let (enter, leave) = names()
            let center = NotificationCenter.default
            let observers = [
                center.addObserver(forName: enter, object: nil, queue: nil) { _ in
                    MainActor.assumeIsolated { handler(true) }
                },
                center.addObserver(forName: leave, object: nil, queue: nil) { _ in
                    MainActor.assumeIsolated { handler(false) }
                },
            ]
            let kept = tokens.withLock { tokens -> Bool in
                guard tokens != nil else { return false }  // cancelled before it started
                tokens = observers.map { UncheckedSendableBox($0) }
                return true
            }
            guard kept else {
                observers.forEach(center.removeObserver)
                return
            }
            if let inBackground = isInBackground() { handler(inBackground) }
        }
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { start() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { start() } }
        }
        return ApplicationStateObservation {
            let observers = tokens.withLock { tokens in
                defer { tokens = nil }
                return tokens ?? []
            }
            for observer in observers { NotificationCenter.default.removeObserver(observer.value) }
        }
    }
}
