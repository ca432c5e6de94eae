import BackgroundTaskKit
import Foundation
import Testing

/// How `ApplicationBackend(resolving:)` gets hold of a main-actor-isolated application.
struct ApplicationBackendResolutionTests {
    /// A backend whose resolver records, for each call, whether it ran on the main thread.
    private static func makeBackend() -> (
        ApplicationBackend<StandInApplication>, StandInApplication, Locked<[Bool]>
    ) {
        let application = StandInApplication()
        let resolverCalls = Locked<[Bool]>([])
        let backend = ApplicationBackend(resolving: {
            resolverCalls.withLock { $0.append(isOnMainActorThread()) }
            return application
        })
        return (backend, application, resolverCalls)
    }

    // MARK: - First use on the main thread

    @MainActor
    @Test func creatingTheBackendDoesNotResolve() async {
        let (_, _, resolverCalls) = Self.makeBackend()

        await drainMainQueue()

        #expect(resolverCalls.value.isEmpty)
    }

    @MainActor
    @Test func firstUseOnTheMainThreadResolvesOnceAndGrants() {
        let (backend, application, resolverCalls) = Self.makeBackend()
        application.setBackgroundTimeRemaining(20)

        let first = backend.beginBackgroundTask(named: "One", expirationHandler: nil)
        let second = backend.beginBackgroundTask(named: "Two", expirationHandler: nil)
        let remaining = backend.backgroundTimeRemaining

        #expect(first != nil)
        #expect(second != nil)
        #expect(remaining == 20)
        #expect(resolverCalls.value == [true])
    }

    @MainActor
    @Test func resolverThatUsesTheBackendFindsItUnresolvedInsteadOfRecursing() {
        let application = StandInApplication()
        let resolverCalls = Locked(0)
        let innerResult = Locked<BackgroundTaskIdentifier??>(nil)
        let backend = Locked<ApplicationBackend<StandInApplication>?>(nil)
        backend.withLock {
            $0 = ApplicationBackend(resolving: {
                resolverCalls.withLock { $0 += 1 }
                let inner = backend.value?.beginBackgroundTask(named: "Inner", expirationHandler: nil)
                innerResult.withLock { $0 = .some(inner) }
                return application
            })
        }

        let outer = backend.value?.beginBackgroundTask(named: "Outer", expirationHandler: nil)

        #expect(outer != nil)
        #expect(innerResult.value == .some(nil))
        #expect(resolverCalls.value == 1)
        #expect(application.begun.map(\.name) == ["Outer"])
    }

    // MARK: - First use off the main thread

    @MainActor
    @Test func firstUseOffTheMainThreadIsGrantedProvisionallyWithoutBlocking() async {
        let (backend, application, resolverCalls) = Self.makeBackend()
        application.setBackgroundTimeRemaining(20)
        let result = Locked<(BackgroundTaskIdentifier?, TimeInterval?)?>(nil)
        let done = Signal()

        // The main thread is blocked while the background thread runs: had the backend waited for the
        // main thread (`DispatchQueue.main.sync`), `done` would never be raised in time.
        Thread {
            let identifier = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)
            let remaining = backend.backgroundTimeRemaining
            result.withLock { $0 = (identifier, remaining) }
            done.raise()
        }.start()
        let returned = done.waitBlocking(timeout: 5)

        #expect(returned)
        #expect(result.value?.0 != nil)  // provisional: the real begin follows on the main queue
        #expect(result.value?.1 == nil)
        #expect(application.begun.isEmpty)
        #expect(resolverCalls.value.isEmpty)
    }

    @MainActor
    @Test func afterTheMainQueueRanEveryThreadIsGranted() async {
        let (backend, _, resolverCalls) = Self.makeBackend()
        let early = await onNewThread { backend.beginBackgroundTask(named: "Early", expirationHandler: nil) }

        await drainMainQueue()
        let onMain = backend.beginBackgroundTask(named: "Main", expirationHandler: nil)
        let offMain = await onNewThread { backend.beginBackgroundTask(named: "Late", expirationHandler: nil) }

        #expect(early != nil)
        #expect(onMain != nil)
        #expect(offMain != nil)
        #expect(resolverCalls.value == [true])
    }

    @MainActor
    @Test func endingBeforeResolutionNeitherResolvesNorReachesTheApplication() async {
        let (backend, application, resolverCalls) = Self.makeBackend()

        await onNewThread { backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 40)) }
        await drainMainQueue()

        #expect(resolverCalls.value.isEmpty)
        #expect(application.ended.isEmpty)
    }

    // MARK: - resolveNow()

    @MainActor
    @Test func resolveNowLetsTheFirstUseOffTheMainThreadSucceed() async {
        let (backend, application, resolverCalls) = Self.makeBackend()
        application.setBackgroundTimeRemaining(20)

        backend.resolveNow()
        let (identifier, remaining) = await onNewThread {
            (backend.beginBackgroundTask(named: "Upload", expirationHandler: nil), backend.backgroundTimeRemaining)
        }

        #expect(identifier != nil)
        #expect(remaining == 20)
        #expect(resolverCalls.value == [true])
    }

    @MainActor
    @Test func resolveNowTwiceCallsTheResolverOnce() {
        let (backend, _, resolverCalls) = Self.makeBackend()

        backend.resolveNow()
        backend.resolveNow()

        #expect(resolverCalls.value == [true])
    }

    @MainActor
    @Test func copiesShareTheResolvedApplication() async {
        let (backend, _, resolverCalls) = Self.makeBackend()
        let copy = backend

        copy.resolveNow()
        let identifier = await onNewThread { backend.beginBackgroundTask(named: "Upload", expirationHandler: nil) }

        #expect(identifier != nil)
        #expect(resolverCalls.value == [true])
    }

    // MARK: - Application handed over directly

    @Test func handedOverApplicationGrantsOffTheMainThreadAtOnce() async {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)

        let identifier = await onNewThread { backend.beginBackgroundTask(named: "Upload", expirationHandler: nil) }

        #expect(identifier?.rawValue == 40)
    }
}
