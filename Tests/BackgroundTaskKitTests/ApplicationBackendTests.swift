import BackgroundTaskKit
import Foundation
import Testing

struct ApplicationBackendTests {
    // MARK: - Identifiers

    @Test func grantedIdentifierCarriesTheApplicationsRawValue() {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)

        let first = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)
        let second = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)

        #expect(first?.rawValue == 40)
        #expect(second?.rawValue == 41)
        #expect(application.begun.map(\.identifier.rawValue) == [40, 41])
    }

    @Test func endingPassesTheApplicationItsOwnIdentifier() throws {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)
        _ = backend.beginBackgroundTask(named: "First", expirationHandler: nil)
        let second = try #require(backend.beginBackgroundTask(named: "Second", expirationHandler: nil))

        backend.endBackgroundTask(second)

        #expect(application.ended == [application.begun[1].identifier])
    }

    @Test func invalidIdentifierMeansNotGranted() {
        let application = StandInApplication()
        application.setGrantsAssertions(false)
        let backend = ApplicationBackend(application)

        let identifier = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)

        #expect(identifier == nil)
        #expect(application.begun.count == 1)
    }

    @Test func endingTheInvalidRawValueNeverReachesTheApplication() {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)

        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: StandInTaskIdentifier.invalid.rawValue))

        #expect(application.ended.isEmpty)
    }

    @Test(arguments: ["Upload photos", "", nil] as [String?])
    func nameReachesTheApplicationUnchanged(name: String?) {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)

        _ = backend.beginBackgroundTask(named: name, expirationHandler: nil)

        #expect(application.begun.map(\.name) == [name])
    }

    @Test func mirrorAcceptsTheHandlerSpelledWithoutSendable() throws {
        let application = StandInUnannotatedHandlerApplication()
        let backend = ApplicationBackend(application)

        let identifier = try #require(backend.beginBackgroundTask(named: "Upload", expirationHandler: nil))
        backend.endBackgroundTask(identifier)

        #expect(identifier.rawValue == 7)
        #expect(application.endedIdentifiers == [StandInTaskIdentifier(rawValue: 7)])
        #expect(backend.backgroundTimeRemaining == 12)
    }

    // MARK: - Expiration handler

    @Test func missingHandlerReachesTheApplicationAsMissing() {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)

        _ = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)

        #expect(application.begun.first?.expirationHandler == nil)
    }

    @MainActor
    @Test func forwardedHandlerRunsOnTheMainActorWhenTheApplicationExpires() {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)
        let runsOnMainThread = Locked<[Bool]>([])

        _ = backend.beginBackgroundTask(named: "Upload") {
            runsOnMainThread.withLock { $0.append(isOnMainActorThread()) }
        }
        application.expire()

        #expect(runsOnMainThread.value == [true])
    }

    @MainActor
    @Test func handlerThatEndsItsTaskEndsTheApplicationsIdentifier() throws {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)
        let identifier = Locked<BackgroundTaskIdentifier?>(nil)

        let granted = try #require(
            backend.beginBackgroundTask(named: "Upload") {
                if let id = identifier.value { backend.endBackgroundTask(id) }
            }
        )
        identifier.withLock { $0 = granted }
        application.expire()

        #expect(application.ended == [StandInTaskIdentifier(rawValue: granted.rawValue)])
    }

    // MARK: - Time remaining

    @Test(
        arguments: [
            (Double.greatestFiniteMagnitude, nil),
            (Double.infinity, nil),
            (Double.nan, nil),
            (29.5, 29.5),
            (0, 0),
        ] as [(TimeInterval, TimeInterval?)])
    func timeRemaining(reported: TimeInterval, expected: TimeInterval?) {
        let application = StandInApplication()
        application.setBackgroundTimeRemaining(reported)
        let backend = ApplicationBackend(application)

        #expect(backend.backgroundTimeRemaining == expected)
    }
}
