/// Which findings an audit reports (`--level`).
public enum AuditLevel: String, Sendable, Hashable, CaseIterable {
    /// The default: only findings whose every link is established (``FindingCertainty/proven``).
    case proven
    /// Also findings with a link the audit could not establish (``FindingCertainty/suspected``): more risky sites
    /// found, and more of them false.
    case suspected

    /// Whether a finding of `certainty` is reported at this level.
    public func reports(_ certainty: FindingCertainty) -> Bool {
        switch (self, certainty) {
        case (.suspected, _), (.proven, .proven): true
        case (.proven, .suspected): false
        }
    }
}
