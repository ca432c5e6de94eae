/// The release of BackgroundTaskKit the tools belong to.
public enum ToolRelease {
    /// Printed by `bgtask --version` and `bgtask-audit --version`: the latest release in `CHANGELOG.md`, followed by
    /// `+unreleased` once its `[Unreleased]` section lists changes (a test checks both).
    public static let version = "3.0.0+unreleased"
}
