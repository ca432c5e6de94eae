import Foundation

/// Seconds without needless fraction: `30`, `30.5`; huge, infinite, NaN as Swift prints them (`1e+300`, `inf`, `nan`).
package func formatSeconds(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, abs(seconds) < 1e9 else { return "\(seconds)" }
    if seconds == seconds.rounded(), abs(seconds) < 1e15 {
        return String(Int64(seconds))
    }
    return String(format: "%.3f", seconds).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
}
