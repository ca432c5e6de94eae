import BackgroundTaskKit
import Foundation

/// Gets work that expiration handlers running off the main thread send to the main actor onto the
/// main thread, in a test whose main thread drives the simulator.
///
/// On a device the system calls such a handler on a background thread and the main thread is free,
/// so work the handler sends to the main actor runs at once. In a test the main thread is the one
/// driving the simulator: blocked in `advance(by:)` until the handler returns, or busy with the
/// test's next line. So work sent through ``hop(_:)`` (the package's engine uses it through its
/// backend hooks) is queued here and run on the main thread at the first of: the main thread waiting
/// for an off-main handler (``wait(for:timeout:)``), the simulator settling before it moves the clock
/// (``settle(timeout:)``), or the main queue's turn. On the main queue's turn it runs for a slice of real time
/// (``mainQueueSlice``) and then queues its next turn behind the main queue's other work, so that threads that keep
/// hopping work cannot hold back the test's own work on the main actor (the return of an `await`).
///
/// Work a handler sends with `DispatchQueue.main` itself cannot run while the test's main thread
/// waits: the waits give up after their timeout of real time.
///
/// Inside a driving call the main thread takes hopped work one piece at a time, in order, as far as the call's
/// ``ArrivalIntake`` lets it, and every wait looks at its deadline after each piece: threads that keep sending work
/// cannot hold the main thread.
final class MainThreadPump: @unchecked Sendable {  // state only under `condition`
    /// How a wait of the main thread ended.
    enum Outcome: Equatable {
        /// What it waited for happened (and the work sent meanwhile has run).
        case finished
        /// Its timeout of real time passed first.
        case timedOut
        /// The driving call it runs in took as much work from other threads as it may (``ArrivalIntake``).
        case arrivalLimitReached
    }

    private let condition = NSCondition()
    private var work = WorkQueue()
    /// Handler threads the simulator started and does not wait for at once.
    private var backgroundWork = 0
    /// The main thread is inside ``wait(for:timeout:)`` or ``settle(timeout:)``.
    private var pumping = 0
    /// A turn on the main queue is queued and has not started yet.
    private var turnQueued = false
    /// The longest the main thread runs hopped work in one turn of the main queue: 10 ms of real time (at least one
    /// piece).
    static let mainQueueSlice: TimeInterval = 0.01
    /// Runs work drained from the main queue as handler time (set by the simulator): that work is
    /// always done for an expiration handler, so the time it spends must not move the clock.
    var asHandlerTime: (@Sendable (() -> Void) -> Void)?
    /// Whether the app runs (set by the simulator): a suspended app's main thread runs nothing, so
    /// work drained on the main queue's turn waits until it runs again (``runQueuedWork()``).
    var appRuns: (@Sendable () -> Bool)?
    /// What the driving call running now may take of the work hopped here.
    let arrivals: ArrivalIntake

    init(arrivals: ArrivalIntake) {
        self.arrivals = arrivals
    }

    /// How many pieces of hopped work are queued now.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return work.count
    }

    /// Whether hopped work or handler threads are pending.
    var hasPendingWork: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !work.isEmpty || backgroundWork > 0
    }

    /// Runs `body` on the main actor soon (see above).
    func hop(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        work.append(body)
        condition.broadcast()
        let queuesTurn = !turnQueued
        turnQueued = true
        condition.unlock()
        if queuesTurn { DispatchQueue.main.async { self.takeMainQueueTurn() } }
    }

    /// Queues a turn on the main queue for the work left queued, if there is any and the app runs: after a driving
    /// call took all it may, or the app runs again.
    func runLeftWorkOnMainQueue() {
        condition.lock()
        let queuesTurn = !turnQueued && !work.isEmpty && (appRuns?() ?? true)
        if queuesTurn { turnQueued = true }
        condition.unlock()
        if queuesTurn { DispatchQueue.main.async { self.takeMainQueueTurn() } }
    }

    /// The main queue's turn: runs hopped work for ``mainQueueSlice``, then queues the next turn if work is left.
    private func takeMainQueueTurn() {
        condition.lock()
        turnQueued = false
        condition.unlock()
        drain(for: Self.mainQueueSlice)
        runLeftWorkOnMainQueue()
    }

    /// Runs `body` on a new thread that the simulator waits for before it next moves the clock.
    func startBackground(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        backgroundWork += 1
        condition.unlock()
        Thread { [self] in
            body()
            condition.lock()
            backgroundWork -= 1
            condition.broadcast()
            condition.unlock()
        }
        .start()
    }

    /// Runs `body` on this (non-main) thread as work the simulator waits for before it moves the clock.
    func runTracked(_ body: () -> Void) {
        condition.lock()
        backgroundWork += 1
        condition.unlock()
        body()
        condition.lock()
        backgroundWork -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// On the main thread: runs `body` on a new thread and, meanwhile, the work hopped to the main
    /// actor, until `body` returns, `timeout` seconds of real time pass, or the driving call has taken all the work it
    /// may (`body` then runs on, and the clock waits for it: ``settle(timeout:)``).
    func wait(for body: @escaping @Sendable () -> Void, timeout: TimeInterval) -> Outcome {
        let finished = Locked(false)
        startBackground {
            body()
            finished.withLock { $0 = true }
        }
        return pump(until: { finished.withLock { $0 } }, timeout: timeout)
    }

    /// On the main thread, before the clock moves: runs the hopped work and waits for the handler
    /// threads started with ``startBackground(_:)``, at most `timeout` of real time, and no more hopped work than the
    /// driving call may take. Does nothing when already pumping (called from work the pump runs).
    func settle(timeout: TimeInterval) -> Outcome {
        condition.lock()
        let idle = work.isEmpty && backgroundWork == 0
        let nested = pumping > 0
        condition.unlock()
        guard !idle, !nested else { return .finished }
        return pump(until: { self.backgroundWork == 0 }, timeout: timeout)
    }

    /// On the main thread: runs the work queued now, as handler time, without waiting for more, as far as the driving
    /// call may take it; not while the app is suspended. Returns whether it ran any.
    @discardableResult
    func runQueuedWork() -> Bool {
        drain(for: nil)
    }

    /// Runs the work queued now (not what comes meanwhile) on the main thread, as handler time, as far as the driving
    /// call may take it, and for at most `slice` of real time (`nil`: no limit; at least one piece); not while the app
    /// is suspended (a suspended app's main thread runs nothing: the work waits until it runs again).
    @discardableResult
    private func drain(for slice: TimeInterval?) -> Bool {
        condition.lock()
        if let appRuns, !appRuns() {
            condition.unlock()
            return false
        }
        let queued = work.count
        let asHandlerTime = asHandlerTime
        condition.unlock()
        guard queued > 0 else { return false }
        var ran = false
        let end = slice.map { Date(timeIntervalSinceNow: $0) }
        let run = {
            for _ in 0..<queued {
                guard let item = self.takeNext() else { break }
                item()
                ran = true
                if let end, Date() >= end { break }
            }
        }
        if let asHandlerTime { asHandlerTime(run) } else { run() }
        return ran
    }

    /// The next piece of queued work, if the driving call may take it.
    private func takeNext() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        return takeNextLocked()
    }

    /// ``takeNext()`` under `condition`.
    private func takeNextLocked() -> (@Sendable () -> Void)? {
        guard !work.isEmpty, arrivals.take(upTo: 1, of: .mainActorWork) == 1 else { return nil }
        return work.popFirst()
    }

    /// Runs hopped work until `done` (read under `condition`) holds, the timeout passes (looked at after every piece,
    /// so that work that keeps coming cannot hold the main thread), or the driving call refuses more work.
    private func pump(until done: @escaping () -> Bool, timeout: TimeInterval) -> Outcome {
        condition.lock()
        pumping += 1
        condition.unlock()
        defer {
            condition.lock()
            pumping -= 1
            condition.unlock()
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            condition.lock()
            var finished = done()
            while work.isEmpty, !finished {
                let signalled = condition.wait(until: deadline)
                finished = done()
                if !signalled { break }
            }
            let item = takeNextLocked()
            let refused = item == nil && !work.isEmpty
            condition.unlock()
            guard let item else { return refused ? .arrivalLimitReached : finished ? .finished : .timedOut }
            item()
            if Date() >= deadline {
                condition.lock()
                defer { condition.unlock() }
                return done() ? .finished : .timedOut
            }
        }
    }
}

/// The hopped work, first in first out, each piece taken in constant time however long the queue grows.
private struct WorkQueue {
    /// Taken pieces are `nil` until the front is cut off, so that they release what they hold.
    private var items: [(@Sendable () -> Void)?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ item: @escaping @Sendable () -> Void) {
        items.append(item)
    }

    mutating func popFirst() -> (@Sendable () -> Void)? {
        guard head < items.count else { return nil }
        let item = items[head]
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1_024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
