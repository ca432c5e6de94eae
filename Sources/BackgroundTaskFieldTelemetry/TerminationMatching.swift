import BackgroundTaskKit
import Foundation

/// Ties MetricKit crash diagnostics to a flight recorder's probable terminations.
enum TerminationMatching {
    /// How long before a diagnostic payload's period a snapshot may have been written and still match
    /// by time: the last snapshot comes seconds before the termination, and MetricKit's period
    /// normally contains the termination.
    static let snapshotLead: TimeInterval = 600

    /// Confirms each unconfirmed termination in `terminations` that a background-task diagnostic
    /// matches; returns the newly confirmed ones. A diagnostic confirms one termination at most.
    static func match(
        _ diagnostics: [CrashDiagnosticRecord],
        into terminations: inout [ProbableBackgroundTaskTermination]
    ) -> [ProbableBackgroundTaskTermination] {
        var matched: [ProbableBackgroundTaskTermination] = []
        for diagnostic in diagnostics where diagnostic.kind.concernsBackgroundTasks {
            guard let index = bestMatch(for: diagnostic, in: terminations) else { continue }
            terminations[index].confirmation = FieldConfirmation(
                kind: diagnostic.kind, terminationReason: diagnostic.terminationReason,
                match: diagnostic.processID == nil ? .buildAndTime : .processID
            )
            matched.append(terminations[index])
        }
        return matched
    }

    private static func bestMatch(
        for diagnostic: CrashDiagnosticRecord,
        in terminations: [ProbableBackgroundTaskTermination]
    ) -> Int? {
        let candidates = terminations.indices.filter { index in
            let termination = terminations[index]
            guard termination.confirmation == nil, termination.appBuild == diagnostic.appBuild else { return false }
            if let processID = diagnostic.processID { return termination.processID == processID }
            guard let start = diagnostic.periodStart, let end = diagnostic.periodEnd else { return false }
            return termination.lastSnapshotAt >= start - snapshotLead && termination.lastSnapshotAt <= end
        }
        // By time alone several runs may fit: the strongest evidence, then the latest.
        return candidates.max { lhs, rhs in
            let (left, right) = (terminations[lhs], terminations[rhs])
            return (left.evidence, left.lastSnapshotAt) < (right.evidence, right.lastSnapshotAt)
        }
    }
}
