@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// An assertion a ledger records for its owner (a diagnosing backend's, or a tracer's as `TracedAssertionEntry`): a
/// list entry that stores a recorder's marks. Open (as SPI, not API) only so the tracer's entries can subclass it.
@_spi(BackgroundTaskKitInternals)
open class RecordedEntry: TaskListEntry, @unchecked Sendable {  // mutable state only under the owner's lock
    @exclusivity(unchecked) private final var marks = RecorderMarks()

    /// The marks, stored here.
    override open var recorderMarks: RecorderMarks {
        get { marks }
        set { marks = newValue }
    }
}
