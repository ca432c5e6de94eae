import BackgroundTaskKitTesting
import Foundation

/// Routes the safety net's leak reports of chosen test files to the tests that drop tasks there on purpose, so they
/// assert their leaks instead of printing them; every other leak goes on to the handler that was in force.
///
/// Installed once, on first use, and never removed. A test that swaps the handler itself calls ``install()`` first,
/// so that its swap and restore wrap the router rather than race its installation.
package enum LeakCapture {
    private struct Routes {
        var counts: [String: Int] = [:]
        var leaks: [String: [BackgroundTaskLeak]] = [:]
    }

    private struct Next {
        var handler: @Sendable (BackgroundTaskLeak) -> Void
    }

    private static let routes = Locked(Routes())
    private static let installed: Next = {
        let next = Next(handler: BackgroundTaskLeakReporting.handler)
        BackgroundTaskLeakReporting.handler = { leak in
            let captured = routes.withLock { routes -> Bool in
                guard routes.counts[leak.callSite.fileID, default: 0] > 0 else { return false }
                routes.leaks[leak.callSite.fileID, default: []].append(leak)
                return true
            }
            if !captured { next.handler(leak) }
        }
        return next
    }()

    /// Installs the router (once).
    package static func install() {
        _ = installed
    }

    /// Runs `body`, capturing the leaks of tasks begun in `fileID` (`#fileID` of the file that begins them) meanwhile,
    /// and returns them beside its result.
    package static func capturing<Result>(
        fileID: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> (result: Result, leaks: [BackgroundTaskLeak]) {
        start(fileID)
        defer { stop(fileID) }
        return (try await body(), captured(fileID))
    }

    /// Synchronous ``capturing(fileID:isolation:_:)``.
    package static func capturing<Result>(
        fileID: String,
        _ body: () throws -> Result
    ) rethrows -> (result: Result, leaks: [BackgroundTaskLeak]) {
        start(fileID)
        defer { stop(fileID) }
        return (try body(), captured(fileID))
    }

    private static func start(_ fileID: String) {
        install()
        routes.withLock { $0.counts[fileID, default: 0] += 1 }
    }

    private static func captured(_ fileID: String) -> [BackgroundTaskLeak] {
        routes.withLock { $0.leaks[fileID] ?? [] }
    }

    private static func stop(_ fileID: String) {
        routes.withLock { routes in
            routes.counts[fileID, default: 1] -= 1
            if routes.counts[fileID] == 0 { routes.leaks[fileID] = nil }
        }
    }
}
