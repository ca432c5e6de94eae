// Apple-only: listed in Documentation/AppleOnlyCode.md.

#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension UIApplication {
        /// `UIApplication.shared`, found at run time on the main actor: `nil` in an app extension or before
        /// `UIApplicationMain` creates it. Naming `shared` breaks extension builds, which Xcode makes of this too.
        @MainActor package static var sharedAtRunTime: UIApplication? {
            (UIApplication.self as AnyObject).value(forKey: "sharedApplication") as? UIApplication
        }
    }
#endif
