import BackgroundTaskKit
import Foundation
import Testing

/// On iOS the first task of a process may begin on a background queue (a cache's cleanup on its own
/// queue) before anything has touched `UIApplication.shared`, which only the main actor may read. It
/// is granted at once, without blocking on the main thread and without set-up, and reaches the
/// application when the main queue has resolved it.
@MainActor
struct FirstBeginOffMainTests {
    /// The application as UIKit's `shared`: reading it off the main actor is recorded.
    private final class SharedApplication: Sendable {
        let application = StandInApplication()
        private let reads = Locked<[Bool]>([])

        /// Whether each read of `shared` happened on the main actor.
        var readsOnMainActor: [Bool] { reads.value }

        @MainActor var shared: StandInApplication {
            reads.withLock { $0.append(isOnMainActorThread()) }
            return application
        }

        func makeBackend() -> ApplicationBackend<StandInApplication> {
            ApplicationBackend(resolving: { self.shared })
        }
    }

    @Test func theFirstBeginOffTheMainThreadIsGrantedWithoutBlocking() async {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        let result = Locked<BackgroundTaskIdentifier?>(nil)
        let done = Signal()

        // The main thread is blocked meanwhile: a begin that waited for it would not return in time.
        Thread {
            result.withLock { $0 = backend.beginBackgroundTask(named: "Cache cleanup", expirationHandler: nil) }
            done.raise()
        }.start()
        #expect(done.waitBlocking(timeout: 5))

        #expect(result.value != nil)
        #expect(shared.application.begun.isEmpty)
        #expect(shared.readsOnMainActor.isEmpty)
    }

    @Test func theProvisionalBeginReachesTheApplicationOnTheMainQueueAndEndsThere() async throws {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        let identifier = try #require(
            await onNewThread { backend.beginBackgroundTask(named: "Cache cleanup", expirationHandler: nil) })

        await drainMainQueue()
        #expect(shared.application.begun.map(\.name) == ["Cache cleanup"])
        #expect(shared.readsOnMainActor == [true])

        await onNewThread { backend.endBackgroundTask(identifier) }
        #expect(shared.application.ended == shared.application.begun.map(\.identifier))
    }

    @Test func anEndBeforeTheMainQueueRanCancelsTheBegin() async throws {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        // Begun and ended on a queue before the main queue has had a turn.
        let identifier = try #require(
            await onNewThread {
                let identifier = backend.beginBackgroundTask(named: "Quick", expirationHandler: nil)
                if let identifier { backend.endBackgroundTask(identifier) }
                return identifier
            })

        await drainMainQueue()
        #expect(shared.application.begun.isEmpty)
        #expect(shared.application.ended.isEmpty)
        backend.endBackgroundTask(identifier)  // twice: still nothing reaches the application
        #expect(shared.application.ended.isEmpty)
    }

    @Test func anEndThatArrivesWhileTheBeginIsBeingMadeEndsItOnceAtOnce() async throws {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        let provisional = Locked<BackgroundTaskIdentifier?>(nil)
        // Another thread's end lands exactly inside the application's begin, on the main queue.
        shared.application.duringNextBegin {
            let ended = Signal()
            Thread {
                if let identifier = provisional.value { backend.endBackgroundTask(identifier) }
                ended.raise()
            }.start()
            _ = ended.waitBlocking(timeout: 5)
        }
        let identifier = await onNewThread {
            let identifier = backend.beginBackgroundTask(named: "Racing", expirationHandler: nil)
            provisional.withLock { $0 = identifier }
            return identifier
        }
        #expect(identifier != nil)

        await drainMainQueue()
        #expect(shared.application.begun.count == 1)
        #expect(shared.application.ended == shared.application.begun.map(\.identifier))
    }

    @Test func theExpirationHandlerOfAProvisionalTaskComesFromTheApplication() async throws {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        let expired = Locked(0)
        let identifier = try #require(
            await onNewThread {
                backend.beginBackgroundTask(named: "Upload") { expired.withLock { $0 += 1 } }
            })
        await drainMainQueue()

        shared.application.expire()
        #expect(expired.value == 1)
        backend.endBackgroundTask(identifier)
        #expect(shared.application.ended.count == 1)
    }

    @Test func aRefusedDeferredBeginEndsNothing() async throws {
        let shared = SharedApplication()
        shared.application.setGrantsAssertions(false)
        let backend = shared.makeBackend()
        let identifier = try #require(
            await onNewThread { backend.beginBackgroundTask(named: "Refused", expirationHandler: nil) })
        await drainMainQueue()

        backend.endBackgroundTask(identifier)
        #expect(shared.application.begun.count == 1)
        #expect(shared.application.ended.isEmpty)
    }

    /// Through the package's faces: a `SafeBackgroundTask` begun on a queue first thing in the process
    /// runs (it is not refused), holds a real assertion once the main queue has run, and ends it once.
    @Test func aSafeTaskBegunOnAQueueFirstRunsAndEndsItsAssertionOnce() async throws {
        let shared = SharedApplication()
        let backend = shared.makeBackend()
        let task = await onNewThread { SafeBackgroundTask.begin("Cache cleanup", backend: backend) }
        #expect(task.state == .running)

        await drainMainQueue()
        #expect(shared.application.begun.count == 1)
        await onNewThread { task.end() }
        #expect(task.state == .ended)
        #expect(shared.application.ended == shared.application.begun.map(\.identifier))
    }
}
