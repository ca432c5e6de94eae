/// Every defect rule over the code model, run once per file: what `bgtask-audit` reports for BT003 to BT009 and BT011 to
/// BT013. (BT001, BT002, BT010 and BT014 stay with the audit's token rules, whose findings need no chain.)
public struct AnalysisRules: Sendable {
    /// The rules this type runs.
    public static let ruleIDs: Set<String> = [
        "BT003", "BT004", "BT005", "BT006", "BT007", "BT008", "BT009", "BT011", "BT012", "BT013",
    ]

    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rules over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings of every rule in `file`, in line order, one per rule and line (the first chain kept).
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        // Every rule starts from a system call in the file (a begin, an end, a registration, an activity), or a call of
        // a project's begin shim.
        guard
            file.bodies.contains(where: { body in
                body.makesSystemCall
                    || (!index.shims.beginNames.isEmpty && body.calls.contains(where: index.shims.isBegin))
            })
        else { return [] }
        let handlers = HandlerRules(index: index)
        var all = BeginSite.all(in: file, index: index).flatMap { handlers.findings(for: $0) }
        // Before the stored-identifier rule: its BT007 (an old end after an overwrite) is the second reason at a place.
        all += DoubleEndRule(index: index).findings(in: file)
        all += StoredIdentifierRule(index: index).findings(in: file)
        all += KeyedTaskRule(index: index).findings(in: file)
        all += CaptureBeforeAssignmentRule(index: index).findings(in: file)
        all += EarlyExitRule(index: index).findings(in: file)
        all += CallbackEndRule(index: index).findings(in: file)
        all += ExpiringActivityRule(index: index).findings(in: file)
        all += LaunchHandlerRules(index: index).findings(in: file)
        all += DoubleCompletionRule(index: index).findings(in: file)
        all += LateRegistrationRule(index: index).findings(in: file)
        var seen: Set<String> = []
        var kept: [AnalysisFinding] = []
        for finding in all where Self.ruleIDs.contains(finding.ruleID) {
            let key = "\(finding.ruleID) \(finding.location.path):\(finding.location.line)"
            guard seen.insert(key).inserted else {
                // A proven chain for the same place wins over a suspected one.
                if finding.certainty == .proven,
                    let other = kept.firstIndex(where: {
                        $0.ruleID == finding.ruleID && $0.location.line == finding.location.line
                            && $0.location.path == finding.location.path && $0.certainty == .suspected
                    })
                {
                    kept[other] = finding
                }
                continue
            }
            kept.append(finding)
        }
        return kept.sorted {
            ($0.location.line, $0.location.column, $0.ruleID) < ($1.location.line, $1.location.column, $1.ruleID)
        }
    }
}
