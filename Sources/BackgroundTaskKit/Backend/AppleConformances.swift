// The only conformances needing an Apple SDK, all empty: the mirror protocols copy the SDK declarations, and the tests'
// stand-ins prove everywhere that identical declarations satisfy them (Documentation/AppleOnlyCode.md).

import Foundation

#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension UIApplication: ApplicationBackgroundTasking {}
    extension UIApplication: ApplicationStateMirroring {}
    extension UIBackgroundTaskIdentifier: BackgroundTaskIdentifierMirror {}
#endif

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    extension ProcessInfo: ExpiringActivityPerforming {}
#endif

#if os(macOS)
    extension ProcessInfo: ProcessActivityManaging {}
#endif
