@_spi(BackgroundTaskKitInternals) import BackgroundTaskDiagnostics
import BackgroundTaskKit
import Testing

private final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// The table behind `DiagnosingBackend`'s held assertions agrees with a `Dictionary` through any
/// sequence of inserts and removals, with growth and the shifting back that removal does.
struct IdentifierTableTests {
    @Test(arguments: [1, 2, 3, 4])
    func agreesWithADictionaryThroughRandomInsertsAndRemovals(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = IdentifierTable<Box>()
        var reference: [Int: Int] = [:]
        let keys = (0..<300).map { _ in Int.random(in: -40...400, using: &generator) } + [0, .max, .min]
        for step in 0..<20_000 {
            let key = keys.randomElement(using: &generator)!
            if Bool.random(using: &generator) {
                table.insert(Box(step), for: key)
                reference[key] = step
            } else {
                #expect(table.remove(key)?.value == reference.removeValue(forKey: key))
            }
            if step % 997 == 0 {
                for key in keys { #expect(table[key]?.value == reference[key]) }
                #expect(table.count == reference.count)
            }
        }
        for key in keys { #expect(table[key]?.value == reference[key]) }
    }

    @Test func sequentialIdentifiersFillAndEmptyTheTable() {
        var table = IdentifierTable<Box>()
        for key in 1...10_000 { table.insert(Box(key), for: key) }
        #expect(table.count == 10_000)
        for key in stride(from: 1, through: 10_000, by: 2) { #expect(table.remove(key)?.value == key) }
        for key in 1...10_000 { #expect(table[key]?.value == (key.isMultiple(of: 2) ? key : nil)) }
    }
}

/// A small deterministic generator (SplitMix64).
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
