/// The backend a face uses when none is passed: the innermost ``withBackgroundTaskBackend(_:operation:)`` override,
/// else the process-wide one, else the platform default.
enum DefaultBackend {
    @TaskLocal static var override: (any BackgroundTaskBackend)?

    /// `explicit`, else as the type says. A begin that falls through to the platform default while an override is in
    /// force elsewhere in the process (a test's, not reaching this thread) is reported: see ``OverrideScopes``.
    static func resolve(
        _ explicit: (any BackgroundTaskBackend)?,
        callSite: @autoclosure () -> BackgroundTaskCallSite = .unknown
    ) -> any BackgroundTaskBackend {
        // A switch over the payload, not `if let`: copying the optional existential whole goes through the runtime's
        // value witnesses, about 100 instructions a begin (callgrind).
        switch explicit {
        case .some(let backend): return backend
        case .none: break
        }
        if let override { return override }
        switch OverrideScopes.shared.processWideOrWitnesses() {
        case .processWide(let backend):
            return backend
        case .witnesses(let witnesses):
            if !witnesses.isEmpty { OverrideScopes.shared.reportFallThrough(at: callSite(), to: witnesses) }
            return PlatformDefaultBackend.platformDefault
        }
    }
}

/// Runs `operation` with `backend` as the default backend of every face begun inside it, on this task and its child
/// tasks: how tests swap in the simulator without a process-wide setting.
///
/// A task-local value does not reach a `DispatchQueue`, another thread or `Task.detached`: a begin there falls through
/// to the platform's backend and is reported (on standard error, and to the simulator, whose `expectNoLeaks()` then
/// fails). For such code use ``withProcessWideBackgroundTaskBackend(_:fileID:line:operation:)``.
/// ```swift
/// withBackgroundTaskBackend(simulator) {
///     exporter.export()  // its SafeBackgroundTask uses the simulator
/// }
/// simulator.advance(by: 60)
/// try simulator.expectNoLeaks()
/// ```
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withBackgroundTaskBackend<Result, Failure: Error>(
    _ backend: any BackgroundTaskBackend,
    operation: () throws(Failure) -> Result
) throws(Failure) -> Result {
    let scope = OverrideScopes.shared.enter(backend)
    defer { OverrideScopes.shared.leave(scope) }
    let result = DefaultBackend.$override.withValue(backend) {
        Swift.Result { () throws(Failure) -> Result in try operation() }
    }
    return try result.get()
}

/// The `async` form of ``withBackgroundTaskBackend(_:operation:)``.
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withBackgroundTaskBackend<Result, Failure: Error>(
    _ backend: any BackgroundTaskBackend,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws(Failure) -> Result
) async throws(Failure) -> Result {
    let scope = OverrideScopes.shared.enter(backend)
    defer { OverrideScopes.shared.leave(scope) }
    let result = await DefaultBackend.$override.withValue(backend) { () async -> Swift.Result<Result, Failure> in
        do throws(Failure) {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
