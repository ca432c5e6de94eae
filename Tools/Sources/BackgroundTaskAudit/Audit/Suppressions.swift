/// The `bgtask:ignore` comments of a file: which rules are silenced on which lines.
///
/// `// bgtask:ignore BT004` (or `/* bgtask:ignore BT004 BT007 */`) at the end of a line silences those
/// rules on that line; on a line of its own it silences them on the next line. Without ids it
/// silences every rule there.
struct Suppressions {
    /// Line → rule ids; an empty set means every rule.
    private var rulesByLine: [Int: Set<String>] = [:]

    init(_ comments: [SuppressionComment], tokenLines: Set<Int>) {
        for comment in comments {
            let ids = Self.ruleIDs(in: comment.text)
            var lines = Array(comment.startLine...comment.endLine)
            if !tokenLines.contains(comment.startLine) || comment.endLine > comment.startLine {
                lines.append(comment.endLine + 1)
            }
            for line in lines {
                if ids.isEmpty {
                    rulesByLine[line] = []
                } else if rulesByLine[line].map({ !$0.isEmpty }) ?? true {
                    rulesByLine[line, default: []].formUnion(ids)
                }
            }
        }
    }

    func silences(_ ruleID: String, onLine line: Int) -> Bool {
        guard let rules = rulesByLine[line] else { return false }
        return rules.isEmpty || rules.contains(ruleID)
    }

    /// The `BTnnn` words after the marker, up to the end of the comment.
    private static func ruleIDs(in text: String) -> Set<String> {
        let bytes = Array(text.utf8)
        let marker = SuppressionMarker.bytes
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        else { return [] }
        let rest = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
        var ids: Set<String> = []
        for word in rest.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let upper = word.uppercased()
            if upper.count == 5, upper.hasPrefix("BT"), upper.dropFirst(2).allSatisfy({ $0.isNumber }) {
                ids.insert(upper)
            } else {
                break
            }
        }
        return ids
    }
}
