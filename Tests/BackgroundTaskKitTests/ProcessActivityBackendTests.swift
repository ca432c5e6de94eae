import BackgroundTaskKit
import Foundation
import Testing

struct ProcessActivityBackendTests {
    private static func makeBackend() -> (ProcessActivityBackend<StandInActivityManager>, StandInActivityManager) {
        let manager = StandInActivityManager()
        return (ProcessActivityBackend(manager, options: [.userInitiated, .suddenTerminationDisabled]), manager)
    }

    // MARK: - Begin

    @Test func everyBeginIsGrantedWithItsOwnIdentifierAndActivity() {
        let (backend, manager) = Self.makeBackend()

        let first = backend.beginBackgroundTask(named: "Export", expirationHandler: nil)
        let second = backend.beginBackgroundTask(named: "Export", expirationHandler: nil)

        #expect(first?.rawValue == 1)
        #expect(second?.rawValue == 2)
        #expect(Set(manager.begun.map(\.token)).count == 2)
    }

    @Test func everyActivityGetsTheBackendsOptions() {
        let (backend, manager) = Self.makeBackend()

        _ = backend.beginBackgroundTask(named: "Export", expirationHandler: nil)

        #expect(manager.begun.map(\.options) == [[.userInitiated, .suddenTerminationDisabled]])
    }

    @Test(
        arguments: [
            ("Export", "Export"),
            ("", ProcessActivityBackend<StandInActivityManager>.defaultReason),
            (nil, ProcessActivityBackend<StandInActivityManager>.defaultReason),
        ] as [(String?, String)])
    func nameBecomesTheActivitysReason(name: String?, reason: String) {
        let (backend, manager) = Self.makeBackend()

        _ = backend.beginBackgroundTask(named: name, expirationHandler: nil)

        #expect(manager.begun.map(\.reason) == [reason])
    }

    @Test func timeRemainingIsUnlimited() {
        #expect(Self.makeBackend().0.backgroundTimeRemaining == nil)
    }

    // MARK: - End

    @Test func endingAnIdentifierEndsTheActivityBegunForIt() throws {
        let (backend, manager) = Self.makeBackend()
        let first = try #require(backend.beginBackgroundTask(named: "First", expirationHandler: nil))
        let second = try #require(backend.beginBackgroundTask(named: "Second", expirationHandler: nil))

        backend.endBackgroundTask(second)
        backend.endBackgroundTask(first)

        #expect(manager.ended == [manager.begun[1].token, manager.begun[0].token])
    }

    @Test func endingTwiceOrAnUnknownIdentifierEndsNothingMore() throws {
        let (backend, manager) = Self.makeBackend()
        let identifier = try #require(backend.beginBackgroundTask(named: "Export", expirationHandler: nil))

        backend.endBackgroundTask(identifier)
        backend.endBackgroundTask(identifier)
        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 999))

        #expect(manager.ended == [manager.begun[0].token])
    }

    @Test func copiesShareTheirActivities() throws {
        let (backend, manager) = Self.makeBackend()
        let copy = backend

        let identifier = try #require(backend.beginBackgroundTask(named: "Export", expirationHandler: nil))
        copy.endBackgroundTask(identifier)

        #expect(manager.ended == [manager.begun[0].token])
    }
}
