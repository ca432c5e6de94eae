import BackgroundTaskKit

/// Shaped like `UIBackgroundTaskIdentifier`: the same declarations, so the empty conformance below
/// proves that UIKit's type satisfies the mirror.
// swift-format-ignore: UseSynthesizedInitializer
struct StandInTaskIdentifier: RawRepresentable, Hashable, Sendable {
    // Spelled out on purpose: UIKit declares this initializer explicitly.
    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    var rawValue: Int

    static let invalid = StandInTaskIdentifier(rawValue: 0)
}

extension StandInTaskIdentifier: BackgroundTaskIdentifierMirror {}
