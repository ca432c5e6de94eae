import BackgroundTaskKit
import Foundation
import Testing

struct ExpiringActivityBackendTests {
    /// How long a test watches a block that must stay parked; a buggy backend releases it at once.
    private static let parkedWatch: TimeInterval = 0.1

    /// Records each run of an expiration handler: whether it ran on the main actor, and whether the
    /// activity's first invocation was still parked at that moment.
    private final class HandlerLog: Sendable {
        struct Run: Equatable {
            let onMainActor: Bool
            let firstInvocationParked: Bool
        }

        private let runs = Locked<[Run]>([])
        let ran = Signal()

        var all: [Run] { runs.value }

        /// Records a run; given the first invocation, watches it briefly: it must not return while the
        /// handler runs.
        func record(firstInvocation: StandInActivityPerformer.Invocation?) {
            let run = Run(
                onMainActor: isOnMainActorThread(),
                firstInvocationParked: firstInvocation.map {
                    !$0.returned.waitBlocking(timeout: ExpiringActivityBackendTests.parkedWatch)
                } ?? false
            )
            runs.withLock { $0.append(run) }
            ran.raise()
        }
    }

    // MARK: - Granted

    @Test func grantedActivityParksItsFirstInvocationUntilEnd() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)

        let identifier = try #require(backend.beginBackgroundTask(named: "Sync", expirationHandler: nil))
        let first = try #require(performer.firstInvocation(of: 0))
        let returnedBeforeEnd = await first.returned.wait(timeout: Self.parkedWatch)
        backend.endBackgroundTask(identifier)
        let returnedAfterEnd = await first.returned.wait()

        #expect(!returnedBeforeEnd)
        #expect(returnedAfterEnd)
    }

    @Test func identifiersCountUpFromOne() async {
        let backend = ExpiringActivityBackend(StandInActivityPerformer(firstInvocation: .grant))

        let identifiers = [
            backend.beginBackgroundTask(named: "One", expirationHandler: nil),
            backend.beginBackgroundTask(named: "Two", expirationHandler: nil),
        ]
        identifiers.compactMap { $0 }.forEach(backend.endBackgroundTask)

        #expect(identifiers.map { $0?.rawValue } == [1, 2])
    }

    @Test(
        arguments: [
            ("Sync", "Sync"),
            ("", ExpiringActivityBackend<StandInActivityPerformer>.defaultReason),
            (nil, ExpiringActivityBackend<StandInActivityPerformer>.defaultReason),
        ] as [(String?, String)])
    func nameBecomesTheActivitysReason(name: String?, reason: String) throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)

        let identifier = try #require(backend.beginBackgroundTask(named: name, expirationHandler: nil))
        backend.endBackgroundTask(identifier)

        #expect(performer.reasons == [reason])
        #expect(!reason.isEmpty)
    }

    @Test func timeRemainingIsUnknown() {
        let backend = ExpiringActivityBackend(StandInActivityPerformer())

        #expect(backend.backgroundTimeRemaining == nil)
    }

    @Test(
        arguments: [
            (0.5, 0.5),
            (0, 0),
            (-1, 0),
            (Double.nan, 2),
            (Double.infinity, Double.infinity),
        ] as [(TimeInterval, TimeInterval)])
    func grantTimeoutIsKeptSane(requested: TimeInterval, kept: TimeInterval) {
        let backend = ExpiringActivityBackend(StandInActivityPerformer(), grantTimeout: requested)

        #expect(backend.grantTimeout == kept)
    }

    @Test func defaultGrantTimeoutIsTwoSeconds() {
        #expect(ExpiringActivityBackend(StandInActivityPerformer()).grantTimeout == 2)
    }

    // MARK: - Not granted

    @Test func expiredFirstInvocationMeansNotGranted() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .refuse)
        let backend = ExpiringActivityBackend(performer)

        let identifier = backend.beginBackgroundTask(named: "Sync", expirationHandler: nil)
        let first = try #require(performer.firstInvocation(of: 0))

        #expect(identifier == nil)
        #expect(await first.returned.wait())
    }

    @Test func noAnswerWithinTheGrantTimeoutMeansNotGrantedAndALateInvocationReturnsAtOnce() async {
        let performer = StandInActivityPerformer(firstInvocation: .none)
        let backend = ExpiringActivityBackend(performer, grantTimeout: 0.05)
        let handler = HandlerLog()

        let identifier = backend.beginBackgroundTask(named: "Sync") { handler.record(firstInvocation: nil) }
        let lateFirst = performer.invoke(0, expired: false)
        let lateSecond = performer.invoke(0, expired: true)
        let lateFirstReturned = await lateFirst.returned.wait()
        let lateSecondReturned = await lateSecond.returned.wait()
        await drainMainQueue()

        #expect(identifier == nil)
        #expect(lateFirstReturned)
        #expect(lateSecondReturned)
        #expect(handler.all.isEmpty)
    }

    // MARK: - Expiry

    @Test(arguments: [true, false])
    func secondExpiredInvocationRunsTheHandlerOnTheMainActorThenReleases(handlerEndsTask: Bool) async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let handler = HandlerLog()
        let granted = Locked<BackgroundTaskIdentifier?>(nil)

        let identifier = try #require(
            backend.beginBackgroundTask(named: "Sync") {
                handler.record(firstInvocation: performer.firstInvocation(of: 0))
                if handlerEndsTask, let id = granted.value { backend.endBackgroundTask(id) }
            }
        )
        granted.withLock { $0 = identifier }
        let first = try #require(performer.firstInvocation(of: 0))
        let second = performer.invoke(0, expired: true)
        let firstReturned = await first.returned.wait()
        let secondReturned = await second.returned.wait()

        #expect(firstReturned)
        #expect(secondReturned)
        #expect(handler.all == [.init(onMainActor: true, firstInvocationParked: true)])
    }

    @MainActor
    @Test func repeatedExpiredInvocationsRunTheHandlerOnce() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let handler = HandlerLog()

        _ = try #require(backend.beginBackgroundTask(named: "Sync") { handler.record(firstInvocation: nil) })
        let first = try #require(performer.firstInvocation(of: 0))
        // Both arrive while the main actor is busy with this test, before the handler can run.
        let second = performer.invoke(0, expired: true)
        let third = performer.invoke(0, expired: true)
        let bothReturned = second.returned.waitBlocking() && third.returned.waitBlocking()
        let firstReturned = await first.returned.wait()
        await drainMainQueue()

        #expect(bothReturned)
        #expect(firstReturned)
        #expect(handler.all.count == 1)
    }

    @Test func laterInvocationThatIsNotExpiredChangesNothing() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let handler = HandlerLog()

        let identifier = try #require(
            backend.beginBackgroundTask(named: "Sync") { handler.record(firstInvocation: nil) }
        )
        let first = try #require(performer.firstInvocation(of: 0))
        let second = performer.invoke(0, expired: false)
        let secondReturned = await second.returned.wait()
        let firstReturned = await first.returned.wait(timeout: Self.parkedWatch)
        await drainMainQueue()
        backend.endBackgroundTask(identifier)

        #expect(secondReturned)
        #expect(!firstReturned)
        #expect(handler.all.isEmpty)
        #expect(await first.returned.wait())
    }

    @Test func expiryWithoutAHandlerReleasesAtOnce() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)

        _ = try #require(backend.beginBackgroundTask(named: "Sync", expirationHandler: nil))
        let first = try #require(performer.firstInvocation(of: 0))
        performer.invoke(0, expired: true)

        #expect(await first.returned.wait())
    }

    @MainActor
    @Test func handlerIsSkippedForATaskEndedBeforeTheMainActorGotToIt() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let handler = HandlerLog()

        let identifier = try #require(
            backend.beginBackgroundTask(named: "Sync") { handler.record(firstInvocation: nil) }
        )
        let first = try #require(performer.firstInvocation(of: 0))
        // The main actor is busy with this test until its next `await`, so the handler cannot run before
        // the task is ended.
        let second = performer.invoke(0, expired: true)
        let secondReturned = second.returned.waitBlocking()
        backend.endBackgroundTask(identifier)
        let firstReturned = first.returned.waitBlocking()
        await drainMainQueue()

        #expect(secondReturned)
        #expect(firstReturned)
        #expect(handler.all.isEmpty)
    }

    // MARK: - Ending

    @Test func endingTwiceAfterExpiryOrAnUnknownIdentifierLeavesOtherTasksParked() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let handler = HandlerLog()

        let ended = try #require(backend.beginBackgroundTask(named: "Ended", expirationHandler: nil))
        let expired = try #require(
            backend.beginBackgroundTask(named: "Expired") { handler.record(firstInvocation: nil) }
        )
        let other = try #require(backend.beginBackgroundTask(named: "Other", expirationHandler: nil))
        let otherFirst = try #require(performer.firstInvocation(of: 2))

        backend.endBackgroundTask(ended)
        backend.endBackgroundTask(ended)
        performer.invoke(0, expired: true)
        performer.invoke(1, expired: true)
        #expect(await handler.ran.wait())
        backend.endBackgroundTask(expired)
        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 999))
        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 0))

        #expect(await !otherFirst.returned.wait(timeout: Self.parkedWatch))
        #expect(handler.all.count == 1)
        backend.endBackgroundTask(other)
        #expect(await otherFirst.returned.wait())
    }
}
