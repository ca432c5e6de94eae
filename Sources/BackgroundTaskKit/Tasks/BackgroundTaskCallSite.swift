/// Where in the source a task was begun: `#fileID`, `#line` and `#function` default arguments, at no run-time cost.
public struct BackgroundTaskCallSite: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` gives it: `Module/File.swift`.
    public var fileID: String
    /// The line of the call.
    public var line: Int
    /// The enclosing function, as `#function` gives it.
    public var function: String

    /// Creates a call site.
    public init(fileID: String, line: Int, function: String) {
        self.fileID = fileID
        self.line = line
        self.function = function
    }

    /// The call site of a raw begin that did not say where it was made.
    public static let unknown = BackgroundTaskCallSite(fileID: "<unknown>", line: 0, function: "<unknown>")

    /// The caller of a raw begin seen by a `BackgroundTaskTracer`: the image (app or framework) the call came from, and
    /// the symbol that made it, or its offset in the image when the image exports no symbol there. The line is `0`.
    /// - Parameters:
    ///   - image: The image's file name (`AnalyticsSDK`, `MyApp`).
    ///   - symbol: The calling function (demangled for Swift), if the image names it.
    ///   - offset: The call's offset in the image, for offline symbolication with the image's dSYM.
    public init(image: String, symbol: String?, offset: UInt) {
        self.init(fileID: image, line: 0, function: symbol ?? "0x" + String(offset, radix: 16))
    }

    /// `Module/File.swift:12 (save(_:))`; for a caller seen by the tracer (line 0), `Image: symbol`.
    public var description: String {
        if line == 0, !fileID.hasPrefix("<") { return "\(fileID): \(function)" }
        return "\(fileID):\(line) (\(function))"
    }
}
