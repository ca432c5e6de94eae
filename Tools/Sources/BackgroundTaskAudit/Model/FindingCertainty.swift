/// How sure the audit is of a finding.
///
/// A defect finding of the code-model rules names its chain of evidence: the begin, the path, the missing or racing
/// end, the threads. When every link is code the audit read, the finding is ``proven`` and reported at the default
/// level. When a link goes through code the project index cannot resolve (a call into another module, a handler held in
/// a variable) or depends on the app's life cycle (whether a second begin can come while the first task is live), it
/// is ``suspected``: reported only at ``AuditLevel/suspected`` (`--level suspected`), and marked so in every format.
public enum FindingCertainty: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every link of the chain is established by code the audit read.
    case proven
    /// Some link rests on code the audit could not read, or on the app's life cycle.
    case suspected
}
