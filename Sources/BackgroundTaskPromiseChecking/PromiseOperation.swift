import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// One step of app code or of the system, as the checker generates it. Every operation is valid in
/// every state (one that cannot apply does nothing), so that a shrunk sequence still runs.
public enum PromiseOperation: Sendable, Equatable {
    /// Which face begins a task.
    public enum Face: Sendable, Equatable {
        /// `SafeBackgroundTask`, over the simulator or the diagnosing wrapper.
        case safe(diagnosing: Bool)
        /// `ScopedBackgroundTask`, over the simulator or the diagnosing wrapper.
        case scoped(diagnosing: Bool)
        /// A task of manager `index`.
        case manager(Int)
    }

    /// What a task's expiration cleanup does.
    public enum Cleanup: Sendable, Equatable {
        case none
        /// Spends 0.1 s of handler time.
        case spend
        /// Begins and ends a `SafeBackgroundTask` of its own.
        case beginAndEndAnother
        /// Ends the task in another slot.
        case endSlot(Int)
        /// Ends every task of manager `index`.
        case endAll(Int)
    }

    case enterBackground
    case enterForeground
    case resumeInBackground
    /// Moves the virtual clock.
    case advance(Double)
    /// Begins a task into a slot (ending nothing: a full slot is left alone).
    case begin(slot: Int, face: Face, cleanup: Cleanup)
    /// Begins a task into a slot on another thread (not waited for): the slot holds it once the begin
    /// has returned.
    case beginOffMain(slot: Int, face: Face, cleanup: Cleanup)
    /// Ends the slot's task on the main thread and empties the slot.
    case end(slot: Int)
    /// Ends the slot's task twice.
    case endTwice(slot: Int)
    /// Ends the slot's task on another thread (not waited for) and empties the slot.
    case endOffMain(slot: Int)
    /// Empties the slot without ending its task: the owner lets go (the safety net, or a scoped
    /// task's normal end).
    case drop(slot: Int)
    /// `endAll()` on manager `index`.
    case endAll(manager: Int)
    /// `withBackgroundTask` whose synchronous body moves the clock.
    case withTask(diagnosing: Bool, bodyAdvance: Double)
    /// The async `withBackgroundTask` whose body moves the clock, then suspends once.
    case withTaskAsync(diagnosing: Bool, bodyAdvance: Double)
    /// Replaces the injected faults.
    case setFaults(Set<SimulatorFault>)
    /// Lets calls held by `.holdOffMainCalls` go on.
    case releaseHeldCalls
    /// The system launches a scheduled task: the async refresh, or the callback processing task.
    case launchScheduled(callback: Bool)
    /// Finishes the oldest running scheduled or continued work, or completes the oldest kept callback task.
    case finishScheduled(success: Bool, callback: Bool)
    /// Lets go of the oldest kept callback task without completing it.
    case dropScheduled
    /// The person starts using the device: running processing tasks expire.
    case userStartsUsingDevice
    /// Starts a continued-processing job (from the foreground only).
    case startContinuedJob
    /// The person stops the oldest running continued-processing job.
    case stopContinuedJob

    /// Slots a world has.
    static let slotCount = 10

    /// A random set of faults; `.notGranted` rarely, as it makes most runs trivial.
    static func randomFaults(using random: inout PromiseRandom) -> Set<SimulatorFault> {
        var faults: Set<SimulatorFault> = []
        let candidates: [SimulatorFault] = [
            .handlerBeforeBeginReturns, .handlerOffMainActor, .handlerTwice, .noHandlerWhenLittleTimeLeft,
            .holdOffMainCalls(.ends), .holdOffMainCalls(.begins), .holdOffMainCalls(.beginsAndEnds),
        ]
        for fault in candidates where random.chance(1, in: 4) { faults.insert(fault) }
        if random.chance(1, in: 12) { faults.insert(.notGranted(callingHandler: random.chance(1, in: 2))) }
        return faults
    }

    /// A fault as Swift code.
    static func swiftCode(of fault: SimulatorFault) -> String {
        switch fault {
        case .notGranted(let callingHandler): ".notGranted(callingHandler: \(callingHandler))"
        case .handlerBeforeBeginReturns: ".handlerBeforeBeginReturns"
        case .handlerOffMainActor: ".handlerOffMainActor"
        case .handlerTwice: ".handlerTwice"
        case .noHandlerWhenLittleTimeLeft: ".noHandlerWhenLittleTimeLeft"
        case .holdOffMainCalls(let kinds): ".holdOffMainCalls(.\(kinds))"
        }
    }
}
