/// Test code: unit tests, UI tests, specs and the mocks and stubs they use. A test double of the begin
/// method is not an app beginning a task; the audit leaves findings there out unless asked
/// (``AuditConfiguration/includesTestCode``), and marks them when it shows them.
enum TestCode {
    /// Modules whose import makes a file test code.
    static let frameworks: Set<String> = [
        "XCTest", "Testing", "Quick", "Nimble", "OCMock", "OCMockito", "OCHamcrest", "Cuckoo", "Mockingbird",
        "SnapshotTesting", "Kiwi", "Specta", "Expecta", "XCTestDynamicOverlay",
    ]

    /// Folder names that hold test code.
    private static let folders: Set<String> = [
        "Tests", "Test", "UnitTests", "UITests", "Specs", "Mocks", "TestSupport",
    ]

    /// Whether `path` is in a test folder (`Tests/`, `AppTests/`, `Mocks/` …) or names a test or mock file
    /// (`UploaderTests.swift`, `MockApplication.m`, `SessionSpec.m`).
    static func isTestPath(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        for folder in components.dropLast() {
            if folders.contains(String(folder)) || folder.hasSuffix("Tests") || folder.hasSuffix("Specs") {
                return true
            }
        }
        guard let file = components.last else { return false }
        let name = file.split(separator: ".").first.map(String.init) ?? String(file)
        return name.hasSuffix("Tests") || name.hasSuffix("Test") || name.hasSuffix("Spec") || name.hasSuffix("Specs")
            || name.hasPrefix("Mock") || name.hasSuffix("Mock") || name.hasSuffix("Mocks")
    }

    /// Whether the file imports a test framework: `import XCTest`, `@testable import App` (any),
    /// `@import XCTest;`, `#import <XCTest/XCTest.h>`, `#import <OCMock/OCMock.h>` …, at the start of a line.
    static func importsTestFramework(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            var start = index
            while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if end > start, bytes[start] == 0x40 || bytes[start] == 0x23 || bytes[start] == 0x69 {  // @ # i
                if let module = importedModule(String(decoding: bytes[start..<end], as: UTF8.self)),
                    module == "@testable" || frameworks.contains(module)
                {
                    return true
                }
            }
            index = end + 1
        }
        return false
    }

    /// The module an import line names (`@testable` for any testable import), or `nil` for other lines.
    private static func importedModule(_ line: String) -> String? {
        if line.hasPrefix("@testable import ") { return "@testable" }
        for prefix in ["import ", "@import ", "#import <", "#include <", "@_exported import "]
        where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }
}
