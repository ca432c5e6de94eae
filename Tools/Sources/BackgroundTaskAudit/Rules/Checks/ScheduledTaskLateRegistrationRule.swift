/// BT013: a `BGTaskScheduler` launch handler registered where the app has already finished launching.
enum ScheduledTaskLateRegistrationRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT013",
        severity: .error,
        summary: "BGTask launch handler registered after the app finished launching"
    )

    /// Methods that only run after `application(_:didFinishLaunchingWithOptions:)` has returned.
    static let afterLaunch: Set<String> = [
        "viewDidLoad", "loadView", "viewWillAppear", "viewDidAppear", "applicationDidBecomeActive",
        "applicationWillEnterForeground", "applicationDidEnterBackground", "applicationWillResignActive", "scene",
        "sceneDidBecomeActive", "sceneWillEnterForeground", "sceneDidEnterBackground", "sceneWillResignActive", "body",
    ]

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        return ScheduledTaskHandlers.registrations(in: syntax).compactMap { registration in
            guard let function = syntax.namedFunction(containing: registration.nameToken),
                let name = ScheduledTaskHandlers.baseName(syntax.scopes[function].name), afterLaunch.contains(name)
            else { return nil }
            // Continued-processing registrations are exempt from the launch rule.
            let scope = syntax.scopes[function]
            let continued = (scope.open..<min(scope.close, syntax.tokens.count)).contains {
                syntax.tokens[$0].isIdentifier("BGContinuedProcessingTaskRequest")
            }
            guard !continued else { return nil }
            return RuleHit(
                token: registration.nameToken,
                message:
                    "Launch handler registered in \(name), after the app finished launching: BGTaskScheduler raises "
                    + "an exception that kills the app. Register every identifier in "
                    + (syntax.isSwift
                        ? "application(_:didFinishLaunchingWithOptions:) (or your App's init()); SafeTaskScheduler "
                            + "throws TaskSchedulingError.registeredAfterLaunch instead."
                        : "application:didFinishLaunchingWithOptions:.")
            )
        }
    }
}
