/// Every scenario `bgtask simulate` runs and the tests check, the well-known bug patterns first.
public enum ScenarioCatalog {
    /// All scenarios, in catalog order.
    public static let all: [Scenario] = [
        .propertyOverwrite,
        .missingHandler,
        .lateEnd,
        .earlyReturn,
        .captureBeforeAssignment,
        .doubleEnd,
        .tooManyTasks,
        .slowHandler,
        .foregroundUpload,
        .checkThenEndRace,
        .debuggerRun,
        .extensionActivity,
        .thirdPartySDK,
        .lockAtSuspension,
        .refusedInBackground,
        .refreshNeverCompletes,
        .processingExpiryIgnored,
        .unregisteredLaunch,
        .lateRegistration,
        .continuedStall,
    ]

    /// The scenario with this ``Scenario/id``, if any.
    public static func scenario(withID id: String) -> Scenario? {
        all.first { $0.id == id }
    }
}
