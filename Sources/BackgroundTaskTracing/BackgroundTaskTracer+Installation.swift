import BackgroundTaskKit
import Foundation

extension BackgroundTaskTracer {
    /// The tracer `install(configuration:)` installed in this process, if any.
    public static var installed: BackgroundTaskTracer? {
        installation.withLock { $0 }
    }

    /// The installed tracer; set once.
    static let installation = Locked<BackgroundTaskTracer?>(nil)
}
