import Foundation

extension AuditBaseline {
    enum CodingKeys: String, CodingKey {
        case schemaVersion
        case entries = "findings"
    }

    /// Decodes a baseline: `{ "findings": [ … ], "schemaVersion": 1 }`.
    ///
    /// - Throws: `DecodingError` when a key is missing or of the wrong type, or when
    ///   `schemaVersion` is not ``schemaVersion``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .schemaVersion)
        guard version == Self.schemaVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .schemaVersion,
                in: container,
                debugDescription: "schema version \(version), this library reads \(Self.schemaVersion)"
            )
        }
        self.init(entries: try container.decode([Entry].self, forKey: .entries))
    }

    /// Encodes the baseline with its schema version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encode(entries, forKey: .entries)
    }

    /// The baseline as the JSON text of a baseline file: pretty-printed, keys sorted, entries
    /// sorted, ending in a newline.
    ///
    /// ```json
    /// {
    ///   "findings" : [
    ///     {
    ///       "code" : "let task = UIApplication.shared.beginBackgroundTask(withName: \"Upload\")",
    ///       "function" : "upload",
    ///       "occurrence" : 0,
    ///       "path" : "App/Upload.swift",
    ///       "rule" : "BT001"
    ///     }
    ///   ],
    ///   "schemaVersion" : 1
    /// }
    /// ```
    ///
    /// - Returns: UTF-8 JSON text.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and nil only: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a baseline from JSON data.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - path: The file's path, for error messages.
    /// - Throws: ``AuditBaselineError`` with ``AuditBaselineError/Code/malformed`` or
    ///   ``AuditBaselineError/Code/unsupportedVersion``.
    public init(json data: Data, path: String) throws(AuditBaselineError) {
        struct Header: Decodable { var schemaVersion: Int }
        if let header = try? JSONDecoder().decode(Header.self, from: data), header.schemaVersion > Self.schemaVersion {
            throw AuditBaselineError(
                code: .unsupportedVersion,
                path: path,
                detail: "schema version \(header.schemaVersion); this bgtask reads version \(Self.schemaVersion)"
            )
        }
        do {
            self = try JSONDecoder().decode(AuditBaseline.self, from: data)
        } catch let error as DecodingError {
            throw AuditBaselineError(code: .malformed, path: path, detail: Self.describe(error))
        } catch {
            throw AuditBaselineError(code: .malformed, path: path, detail: "not JSON")
        }
    }

    /// Reads a baseline file.
    ///
    /// - Parameter path: The file written by ``write(to:)`` or `bgtask audit --write-baseline`.
    /// - Throws: ``AuditBaselineError``: ``AuditBaselineError/Code/unreadable`` when the file is
    ///   missing, not a regular file or unreadable, otherwise as ``init(json:path:)``.
    public init(contentsOf path: String) throws(AuditBaselineError) {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path) else {
            throw AuditBaselineError(code: .unreadable, path: path, detail: "no such file")
        }
        // Never open a FIFO or a device: reading one can block for ever.
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            let kind = attributes[.type] as? FileAttributeType == .typeDirectory ? "a folder" : "not a regular file"
            throw AuditBaselineError(code: .unreadable, path: path, detail: kind)
        }
        guard let data = manager.contents(atPath: path) else {
            throw AuditBaselineError(code: .unreadable, path: path, detail: "permission denied or I/O error")
        }
        try self.init(json: data, path: path)
    }

    /// Writes the baseline file (``json()``), replacing any file at `path`.
    ///
    /// - Parameter path: Where to write.
    /// - Throws: ``AuditBaselineError`` with ``AuditBaselineError/Code/unwritable``.
    public func write(to path: String) throws(AuditBaselineError) {
        do {
            try Data(json().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AuditBaselineError(code: .unwritable, path: path, detail: Self.reason(error))
        }
    }

    /// A short description of what is wrong in the file.
    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let text = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(place(context.codingPath))"
            return "missing key '\(key.stringValue)'\(parent)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(place(context.codingPath))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a baseline"
        }
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return (underlying ?? error as NSError).localizedDescription
    }
}
