/// The backend a face uses when none is passed: the innermost ``withBackgroundTaskBackend(_:operation:)``
/// override, else the platform default.
enum DefaultBackend {
    @TaskLocal static var override: (any BackgroundTaskBackend)?

    /// `explicit`, else the task-local override, else the platform default.
    static func resolve(_ explicit: (any BackgroundTaskBackend)?) -> any BackgroundTaskBackend {
        explicit ?? override ?? PlatformDefaultBackend.platformDefault
    }
}

/// Runs `operation` with `backend` as the default backend of every face begun inside it, on this task
/// and its child tasks: the way tests swap in the simulator without a process-wide setting.
///
/// ```swift
/// @MainActor @Test func exportNeverLeaks() throws {
///     let simulator = BackgroundTaskSimulator()
///     withBackgroundTaskBackend(simulator) {
///         exporter.export()  // its SafeBackgroundTask uses the simulator
///     }
///     simulator.advance(by: 60)
///     try simulator.expectNoLeaks()
/// }
/// ```
///
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withBackgroundTaskBackend<Result, Failure: Error>(
    _ backend: any BackgroundTaskBackend,
    operation: () throws(Failure) -> Result
) throws(Failure) -> Result {
    let result = DefaultBackend.$override.withValue(backend) {
        Swift.Result { () throws(Failure) -> Result in try operation() }
    }
    return try result.get()
}

/// The `async` form of ``withBackgroundTaskBackend(_:operation:)``.
///
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
    let result = await DefaultBackend.$override.withValue(backend) { () async -> Swift.Result<Result, Failure> in
        do throws(Failure) {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
