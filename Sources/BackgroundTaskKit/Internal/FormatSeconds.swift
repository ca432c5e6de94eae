import Foundation

/// Seconds printed without a needless fraction: `30`, `30.5`.
package func formatSeconds(_ seconds: TimeInterval) -> String {
    if seconds == seconds.rounded(), abs(seconds) < 1e15 {
        return String(Int64(seconds))
    }
    return String(format: "%.3f", seconds).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
}
