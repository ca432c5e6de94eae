import BackgroundTaskKit
import Foundation

/// The object whose background-task methods a ``BackgroundTaskTracer`` intercepts: on Apple platforms
/// `UIApplication`, whose methods the tracer's installation exchanges; elsewhere a stand-in with the
/// same three methods, whose implementations call the tracer's
/// ``BackgroundTaskTracer/interceptBegin(on:named:expirationHandler:callStack:original:)`` and
/// ``BackgroundTaskTracer/interceptEnd(on:_:original:)``.
///
/// The tracer calls ``endBackgroundTaskBypassingTracer(_:)`` only to rescue an assertion still held
/// after its own expiration handler returned (``BackgroundTaskTracer/Configuration/rescuesHeldAssertions``).
public protocol TracedApplication: AnyObject, Sendable {
    /// The identifier type of the application (`UIBackgroundTaskIdentifier` in UIKit).
    associatedtype TaskIdentifier: BackgroundTaskIdentifierMirror

    /// Ends an assertion with the application's original implementation, unseen by the tracer.
    ///
    /// - Parameter identifier: An identifier the original begin returned.
    func endBackgroundTaskBypassingTracer(_ identifier: TaskIdentifier)
}

extension TracedApplication {
    /// Ends the assertion with this raw identifier, bypassing the tracer.
    func endBypassingTracer(rawIdentifier: Int) {
        endBackgroundTaskBypassingTracer(TaskIdentifier(rawValue: rawIdentifier))
    }
}
