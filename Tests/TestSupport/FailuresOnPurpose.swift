import BackgroundTaskKitTesting
import Testing

/// For tests that make simulator expectations fail on purpose and pass by checking the failure: the test kit attaches
/// no timeline for them, so a passing `swift test` prints nothing that reads as a failure.
package struct FailuresOnPurposeTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    package var isRecursive: Bool { true }

    /// Runs the test with the test kit's attachments off.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TimelineAttachments.$isSuppressed.withValue(true) { try await function() }
    }
}

extension Trait where Self == FailuresOnPurposeTrait {
    /// The test fails simulator expectations on purpose: attach nothing.
    package static var failuresOnPurpose: Self { FailuresOnPurposeTrait() }
}
