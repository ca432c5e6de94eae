import BackgroundTaskKit
import Foundation
import Testing

/// Many threads at once. CI reruns this suite under `--sanitize=thread`.
struct BackendConcurrencyTests {
    private static let threadCount = 8

    // MARK: - Expiring activities

    @Test func expiringActivityBeginAndEndFromManyThreadsReleasesEveryActivity() async {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let perThread = 20
        let granted = Locked<[BackgroundTaskIdentifier]>([])

        let finished = await onThreads(Self.threadCount) { _ in
            for _ in 0..<perThread {
                guard let identifier = backend.beginBackgroundTask(named: "Sync", expirationHandler: nil) else {
                    continue
                }
                granted.withLock { $0.append(identifier) }
                backend.endBackgroundTask(identifier)
            }
        }
        let activityCount = performer.reasons.count
        var allReturned = true
        for index in 0..<activityCount {
            let returned = await performer.firstInvocation(of: index)?.returned.wait() ?? false
            allReturned = allReturned && returned
        }

        #expect(finished)
        #expect(granted.value.count == Self.threadCount * perThread)
        #expect(Set(granted.value).count == Self.threadCount * perThread)
        #expect(activityCount == Self.threadCount * perThread)
        #expect(allReturned)
    }

    @Test func expiringActivityEndRacingExpiryReleasesEachActivityAndRunsItsHandlerAtMostOnce() async throws {
        let performer = StandInActivityPerformer(firstInvocation: .grant)
        let backend = ExpiringActivityBackend(performer)
        let activityCount = 24
        let handlerRuns = Locked<[Int: Int]>([:])
        var identifiers: [BackgroundTaskIdentifier] = []
        for index in 0..<activityCount {
            identifiers.append(
                try #require(
                    backend.beginBackgroundTask(named: "Sync \(index)") {
                        handlerRuns.withLock { $0[index, default: 0] += 1 }
                    }
                )
            )
        }

        // Thread 2i ends activity i while thread 2i + 1 delivers its second, expired invocation.
        let racing = identifiers
        let finished = await onThreads(activityCount * 2) { thread in
            let index = thread / 2
            if thread.isMultiple(of: 2) {
                backend.endBackgroundTask(racing[index])
            } else {
                performer.invoke(index, expired: true)
            }
        }
        var allReturned = true
        for index in 0..<activityCount {
            for invocation in performer.invocations(of: index) {
                let returned = await invocation.returned.wait()
                allReturned = allReturned && returned
            }
        }
        await drainMainQueue()

        #expect(finished)
        #expect(allReturned)
        #expect(handlerRuns.value.values.allSatisfy { $0 == 1 })
    }

    // MARK: - Unlimited

    @Test func unlimitedBackendGrantsDistinctIdentifiersAcrossThreads() async {
        let backend = UnlimitedBackend()
        let perThread = 500
        let granted = Locked<[BackgroundTaskIdentifier]>([])

        let finished = await onThreads(Self.threadCount) { _ in
            let mine = (0..<perThread).compactMap { _ in
                backend.beginBackgroundTask(named: "Flush", expirationHandler: nil)
            }
            mine.forEach(backend.endBackgroundTask)
            granted.withLock { $0 += mine }
        }

        #expect(finished)
        #expect(granted.value.count == Self.threadCount * perThread)
        #expect(Set(granted.value).count == Self.threadCount * perThread)
    }

    // MARK: - Process activities

    @Test func processActivityBeginAndEndFromManyThreadsEndsEveryActivityOnce() async {
        let manager = StandInActivityManager()
        let backend = ProcessActivityBackend(manager, options: .userInitiated)
        let perThread = 200

        let finished = await onThreads(Self.threadCount) { _ in
            for _ in 0..<perThread {
                guard let identifier = backend.beginBackgroundTask(named: "Export", expirationHandler: nil) else {
                    continue
                }
                backend.endBackgroundTask(identifier)
                backend.endBackgroundTask(identifier)
            }
        }

        #expect(finished)
        #expect(manager.begun.count == Self.threadCount * perThread)
        #expect(manager.ended.count == manager.begun.count)
        #expect(Set(manager.ended) == Set(manager.begun.map(\.token)))
    }

    // MARK: - Application

    @Test func applicationBackendBeginAndEndFromManyThreadsEndsWhatItBegan() async {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)
        let perThread = 200

        let finished = await onThreads(Self.threadCount) { _ in
            for _ in 0..<perThread {
                if let identifier = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil) {
                    backend.endBackgroundTask(identifier)
                }
            }
        }

        #expect(finished)
        #expect(application.begun.count == Self.threadCount * perThread)
        #expect(Set(application.ended) == Set(application.begun.map(\.identifier)))
        #expect(application.ended.count == application.begun.count)
    }

    @MainActor
    @Test func manyFirstUsesOffTheMainThreadScheduleOneResolution() async {
        let application = StandInApplication()
        let resolverCalls = Locked<[Bool]>([])
        let backend = ApplicationBackend(resolving: {
            resolverCalls.withLock { $0.append(isOnMainActorThread()) }
            return application
        })
        let granted = Locked(0)

        // The main actor is blocked until every thread is done, so none of them can see it resolved.
        let finished = onThreadsBlocking(Self.threadCount * 2) { _ in
            if backend.beginBackgroundTask(named: "Upload", expirationHandler: nil) != nil {
                granted.withLock { $0 += 1 }
            }
        }
        let callsBeforeMainQueueRan = resolverCalls.value
        await drainMainQueue()

        #expect(finished)
        #expect(granted.value == Self.threadCount * 2)  // each provisionally, at once
        #expect(callsBeforeMainQueueRan.isEmpty)
        #expect(resolverCalls.value == [true])
        #expect(application.begun.count == Self.threadCount * 2)  // all made by the one main-queue turn
    }
}
