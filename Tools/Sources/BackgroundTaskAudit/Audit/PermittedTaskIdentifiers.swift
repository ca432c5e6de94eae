import Foundation

/// The `BGTaskSchedulerPermittedIdentifiers` of the property lists found under the audited folders (XML or binary),
/// for BT014.
enum PermittedTaskIdentifiers {
    /// The union of every list's entries, or `nil` when no property list has the key (then nothing is checked).
    static func read(_ paths: [String]) -> [String]? {
        var found: [String]?
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                let identifiers = plist["BGTaskSchedulerPermittedIdentifiers"] as? [String]
            else { continue }
            found = (found ?? []) + identifiers
        }
        return found
    }

    /// Whether `identifier` is in `permitted`, or under one of its `prefix.*` entries. A build variable in an entry
    /// (`$(PRODUCT_BUNDLE_IDENTIFIER).refresh`) or in the identifier (`"\(Bundle.main.bundleIdentifier!).refresh"`,
    /// read as that variable) stands for any text: the rest after it must match.
    static func permits(_ identifier: String, in permitted: [String]) -> Bool {
        permitted.contains { entry in
            let (entryRest, entryVaries) = afterVariable(entry)
            let (identifierRest, identifierVaries) = afterVariable(identifier)
            if entryVaries || identifierVaries {
                return matches(identifierRest, entryRest) || identifierRest.hasSuffix(entryRest)
                    || entryRest.hasSuffix(identifierRest)
            }
            return matches(identifier, entry)
        }
    }

    /// `entry` equals `identifier`, or is a `prefix.*` entry over it.
    private static func matches(_ identifier: String, _ entry: String) -> Bool {
        guard entry.hasSuffix(".*") else { return entry == identifier }
        let prefix = entry.dropLast()
        return identifier.count > prefix.count && identifier.hasPrefix(prefix)
    }

    /// The text after the last build variable (`$(NAME)` or `${NAME}`) in `text`, and whether there was one.
    private static func afterVariable(_ text: String) -> (String, Bool) {
        guard let start = text.range(of: "$(", options: .backwards) ?? text.range(of: "${", options: .backwards),
            let end = text[start.upperBound...].firstIndex(where: { $0 == ")" || $0 == "}" })
        else { return (text, false) }
        return (String(text[text.index(after: end)...]), true)
    }
}
