/// What an audit reads and how it judges it.
public struct AuditConfiguration: Sendable {
    /// Paths of your own wrappers, where raw calls are expected (BT001 is not reported there; the other
    /// rules still are).
    public var allowedWrapperPaths: [GlobPattern]
    /// Files larger than this many bytes are skipped with a note (generated code, data with a source
    /// extension). The default is 8 MiB.
    public var maximumFileSize: Int
    /// Folder names never entered: `.build`, `Pods`, `Carthage`, `DerivedData`. Hidden folders (whose
    /// names start with `.`) are skipped too.
    public var skippedFolderNames: Set<String>
    /// Whether findings in test code are reported (`--include-tests`): files in test folders (`Tests/`,
    /// `AppTests/`, `Mocks/` …), test and mock files (`UploaderTests.swift`, `MockApplication.m`), and files
    /// that import a test framework (XCTest, Swift Testing, Quick, OCMock …). Off by default: a test double of
    /// the begin method is not an app beginning a task. When on, their messages say they are in test code.
    public var includesTestCode: Bool
    /// The app's `BGTaskSchedulerPermittedIdentifiers` (entries ending in `.*` admit their prefix), against which
    /// BT014 checks the task identifiers the code registers and submits; `nil` (the default): read from the
    /// `.plist` files under the audited folders, and not checked when none lists any.
    public var permittedTaskIdentifiers: [String]?
    /// Which findings are reported (`--level`): proven ones only (the default), or suspected ones too.
    public var level: AuditLevel = .proven
    /// Which rules decide the defect findings (`--engine`).
    public var engine: AuditEngine = .codeModel

    /// The default folders to skip.
    public static let defaultSkippedFolderNames: Set<String> = [".build", "Pods", "Carthage", "DerivedData"]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - allowedWrapperPaths: Globs of wrapper files (`--allow`).
    ///   - maximumFileSize: The size above which files are skipped.
    ///   - skippedFolderNames: Folder names never entered.
    ///   - includesTestCode: Whether findings in test code are reported (`--include-tests`).
    public init(
        allowedWrapperPaths: [GlobPattern] = [],
        maximumFileSize: Int = 8 * 1024 * 1024,
        skippedFolderNames: Set<String> = AuditConfiguration.defaultSkippedFolderNames,
        includesTestCode: Bool = false
    ) {
        self.allowedWrapperPaths = allowedWrapperPaths
        self.maximumFileSize = maximumFileSize
        self.skippedFolderNames = skippedFolderNames
        self.includesTestCode = includesTestCode
    }

    func isAllowedWrapper(_ path: String) -> Bool {
        allowedWrapperPaths.contains { $0.matches(path) }
    }
}
