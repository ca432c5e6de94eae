import BackgroundTaskKit
import Foundation

/// How a continued-processing job reports its progress and changes what the system shows; ``runsInLiveActivity``
/// tells whether the system shows it at all (`false` when the job fell back to an ordinary background task).
///
/// ```swift
/// progress.update(completed: 0, of: Int64(frames.count))
/// for (index, frame) in frames.enumerated() {
///     try await encoder.encode(frame)
///     progress.update(completed: Int64(index + 1), of: Int64(frames.count))
/// }
/// ```
/// > Important: Report often: the system expires continued-processing tasks that appear stalled, and ends those with
/// > little progress first.
public final class ContinuedProcessingProgress: Sendable {
    private struct Values {
        var completed: Int64 = 0
        var total: Int64 = 0
    }

    /// Whether the system shows the job (a `BGContinuedProcessingTask`); `false` under the fallback background task.
    public let runsInLiveActivity: Bool
    private let task: (any LaunchedContinuedProcessingTask)?
    private let values = Locked(Values())

    init(task: (any LaunchedContinuedProcessingTask)?) {
        self.task = task
        self.runsInLiveActivity = task != nil
    }

    /// Sets the progress: `completed` units done of `total`. Negative values count as 0; `completed` above `total`
    /// counts as `total`. Callable from any thread.
    /// - Parameters:
    ///   - completed: Units done.
    ///   - total: Units in all.
    public func update(completed: Int64, of total: Int64) {
        let total = max(total, 0)
        let completed = min(max(completed, 0), total)
        values.withLock { $0 = Values(completed: completed, total: total) }
        task?.reportProgress(completed: completed, total: total)
    }

    /// Changes the title and subtitle the system shows; does nothing under the fallback background task.
    /// - Parameters:
    ///   - title: The new title.
    ///   - subtitle: The new subtitle.
    public func updateTitle(_ title: String, subtitle: String) {
        task?.updateTitle(title, subtitle: subtitle)
    }

    /// Units done, as last reported.
    public var completed: Int64 { values.withLock { $0.completed } }
    /// Units in all, as last reported.
    public var total: Int64 { values.withLock { $0.total } }
}
