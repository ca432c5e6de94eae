/// Formats numbers for the pictures without Foundation: seconds, coordinates and counts.
enum TimelineNumber {
    /// `30`, `0.5`, `26.125`: at most three decimals, no trailing zeros; `?` when not finite.
    static func seconds(_ value: Double) -> String {
        fixed(value, decimals: 3)
    }

    /// A coordinate with at most one decimal.
    static func coordinate(_ value: Double) -> String {
        fixed(value, decimals: 1)
    }

    /// `9,960`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    private static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "?" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return value < 0 ? "-huge" : "huge" }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        var fraction = String(units % UInt64(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = value < 0 && units != 0 ? "-" : ""
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// Where a time falls between a timeline's start and end.
enum TimelineScale {
    /// 0 at `start`, 1 at `end`; times outside, infinite or NaN are pinned to the edges, and a span of no length (or
    /// too large for a `Double`) never gives NaN.
    static func fraction(of time: Double, start: Double, end: Double) -> Double {
        guard !time.isNaN else { return 0 }
        guard end > start else { return 0 }
        let fraction = time / 2 / (end / 2 - start / 2) - start / 2 / (end / 2 - start / 2)
        guard fraction.isFinite else { return time > start ? 1 : 0 }
        return min(max(fraction, 0), 1)
    }
}
