@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

/// Identifiers to objects, for `DiagnosingBackend`'s held assertions: open addressing with linear
/// probing on the raw value and a multiplicative hash.
///
/// Identifiers are small integers that the system hands out in sequence; Swift's `Dictionary` hashes
/// them with seeded SipHash, several times the cost of a whole lookup here. Not for keys an attacker
/// chooses. Removal shifts the following entries back, so there are no tombstones and a lookup stops
/// at the first empty slot.
package struct IdentifierTable<Value: AnyObject> {
    /// An empty table.
    package init() {}

    private var keys: [Int] = Array(repeating: 0, count: 16)
    private var values: [Value?] = Array(repeating: nil, count: 16)
    private var shift = 64 - 4
    /// Entries in the table.
    package private(set) var count = 0

    private var mask: Int { values.count - 1 }

    private func home(of key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The value for `key`, if any.
    package subscript(key: Int) -> Value? {
        var index = home(of: key)
        while let value = values[index] {
            if keys[index] == key { return value }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `key`, replacing the value there was.
    package mutating func insert(_ value: Value, for key: Int) {
        if (count + 1) * 4 > values.count * 3 { grow() }
        var index = home(of: key)
        while values[index] != nil {
            if keys[index] == key {
                values[index] = value
                return
            }
            index = (index + 1) & mask
        }
        keys[index] = key
        values[index] = value
        count += 1
    }

    /// Removes and returns the value for `key`, if any.
    package mutating func remove(_ key: Int) -> Value? {
        var index = home(of: key)
        while let value = values[index] {
            if keys[index] == key {
                values[index] = nil
                count -= 1
                shiftBack(from: index)
                return value
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Moves the entries after the emptied slot `hole` back where their probe sequence needs them.
    private mutating func shiftBack(from hole: Int) {
        var hole = hole
        var next = (hole + 1) & mask
        while values[next] != nil {
            let home = home(of: keys[next])
            // Leave the entry where it is if its home lies cyclically in (hole, next].
            let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !staysPut {
                keys[hole] = keys[next]
                values[hole] = values[next]
                values[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let capacity = values.count * 2
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: nil, count: capacity)
        shift -= 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) {
            if let value { insert(value, for: key) }
        }
    }
}
