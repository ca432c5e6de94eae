// The only conformances that need an Apple SDK. Each has an empty body: the mirror protocols copy the
// SDK declarations, and the stand-ins in the tests prove on every platform that identical declarations
// satisfy them. Listed line by line in Documentation/AppleOnlyCode.md.

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
