/// One link of a finding's chain of evidence: a place in the code and what it shows.
public struct EvidenceLink: Sendable, Equatable {
    /// What the link shows.
    public var text: String
    /// Where.
    public var location: CodeRange
    /// Whether the link is established by code the index could read; `false` when it rests on code the index cannot
    /// resolve (a call into another module, a closure held in a variable), which makes the finding suspected.
    public var isEstablished: Bool

    /// Creates a link.
    public init(_ text: String, at location: CodeRange, isEstablished: Bool = true) {
        self.text = text
        self.location = location
        self.isEstablished = isEstablished
    }

    /// `path:line: text`, for messages.
    public var description: String {
        "\(location.path):\(location.line): \(text)"
    }
}

extension EvidenceLink {
    /// The first link of a chain: a begin, and where its identifier is kept (`what`: "a background task", "a task").
    /// A begin assigned to `_` throws its identifier away, and says so.
    static func begin(_ what: String, keptIn name: String, at location: CodeRange) -> EvidenceLink {
        let kept = name == "_" ? "and throws its identifier away (`_ =`)" : "kept in `\(name)`"
        return EvidenceLink("begins \(what) \(kept)", at: location)
    }
}

/// How sure a finding is.
public enum Certainty: String, Sendable, Equatable, Codable {
    /// Every link of the chain is established: reported at the default level.
    case proven
    /// Some link goes through code the index cannot resolve, or depends on the app's life cycle: reported only at
    /// the `suspected` level.
    case suspected
}

/// A defect the analysis found, with its chain of evidence.
public struct AnalysisFinding: Sendable, Equatable {
    /// The rule, `BT004`.
    public var ruleID: String
    /// Where the finding points.
    public var location: CodeRange
    /// The chain: the begin, the path, the missing or late end, the threads.
    public var chain: [EvidenceLink]
    /// Whether every link is established.
    public var certainty: Certainty {
        chain.allSatisfy(\.isEstablished) ? .proven : .suspected
    }

    /// Creates a finding.
    public init(ruleID: String, location: CodeRange, chain: [EvidenceLink]) {
        self.ruleID = ruleID
        self.location = location
        self.chain = chain
    }
}
