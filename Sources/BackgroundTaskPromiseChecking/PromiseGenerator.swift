import BackgroundTaskSimulation

/// Chooses the next operation at random, weighted towards what finds races: moving the clock past
/// expiry, begins, ends from every direction.
struct PromiseGenerator {
    var random: PromiseRandom
    let setup: PromiseSetup

    mutating func next() -> PromiseOperation {
        let slot = Int.random(in: 0..<PromiseOperation.slotCount, using: &random)
        let roll = Int.random(in: 0..<110, using: &random)
        switch roll {
        case 0..<6: return .enterBackground
        case 6..<9: return .enterForeground
        case 9..<11: return .resumeInBackground
        case 11..<30: return .advance(random.pick([0.5, 1, 2, 4, 8, 15, 30]))
        case 30..<50: return .begin(slot: slot, face: face(), cleanup: cleanup())
        case 50..<55: return .beginOffMain(slot: slot, face: face(), cleanup: cleanup())
        case 55..<67: return .end(slot: slot)
        case 67..<70: return .endTwice(slot: slot)
        case 70..<78: return .endOffMain(slot: slot)
        case 78..<83: return .drop(slot: slot)
        case 83..<86: return .endAll(manager: Int.random(in: 0..<max(setup.managers.count, 1), using: &random))
        case 86..<89: return .withTask(diagnosing: random.chance(1, in: 3), bodyAdvance: random.pick([0, 1, 5, 30]))
        case 89..<92:
            return .withTaskAsync(diagnosing: random.chance(1, in: 3), bodyAdvance: random.pick([0, 1, 5, 30]))
        case 92..<95: return .releaseHeldCalls
        case 95..<100: return .setFaults(PromiseOperation.randomFaults(using: &random))
        case 100..<103: return .launchScheduled(callback: random.chance(1, in: 2))
        case 103..<106: return .finishScheduled(success: random.chance(2, in: 3), callback: random.chance(1, in: 2))
        case 106: return .dropScheduled
        case 107: return .userStartsUsingDevice
        case 108: return .startContinuedJob
        default: return .stopContinuedJob
        }
    }

    private mutating func face() -> PromiseOperation.Face {
        let managers = setup.managers.count
        switch Int.random(in: 0..<(managers > 0 ? 4 : 2), using: &random) {
        case 0: return .safe(diagnosing: random.chance(1, in: 3))
        case 1: return .scoped(diagnosing: random.chance(1, in: 3))
        default: return .manager(Int.random(in: 0..<managers, using: &random))
        }
    }

    private mutating func cleanup() -> PromiseOperation.Cleanup {
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1: return .spend
        case 2: return .beginAndEndAnother
        case 3: return .endSlot(Int.random(in: 0..<PromiseOperation.slotCount, using: &random))
        case 4: return .endAll(Int.random(in: 0..<max(setup.managers.count, 1), using: &random))
        default: return .none
        }
    }
}
