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

    /// Whether `identifier` is in `permitted`, or under one of its `prefix.*` entries.
    static func permits(_ identifier: String, in permitted: [String]) -> Bool {
        permitted.contains { entry in
            guard entry.hasSuffix(".*") else { return entry == identifier }
            let prefix = entry.dropLast()
            return identifier.count > prefix.count && identifier.hasPrefix(prefix)
        }
    }
}
