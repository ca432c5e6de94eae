// Apple-only: listed in Documentation/AppleOnlyCode.md.

#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension UIApplication {
        /// `UIApplication.shared`, looked up at run time on the main actor: `nil` in an app extension
        /// and before `UIApplicationMain` has created the application. Naming `shared` would not
        /// compile in an extension, and Xcode compiles this package for extensions too.
        @MainActor static var sharedAtRunTime: UIApplication? {
            (UIApplication.self as AnyObject).value(forKey: "sharedApplication") as? UIApplication
        }
    }
#endif
