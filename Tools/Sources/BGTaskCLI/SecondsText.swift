import Foundation

/// Seconds as the tool prints them, to the millisecond without trailing zeros: `30`, `30.5`, `0.125`; huge, infinite
/// or NaN values as Swift prints them (`1e+300`, `inf`, `nan`), as the library's own reports do.
func formatSeconds(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, seconds.magnitude < 1e9 else { return "\(seconds)" }
    var text = String(format: "%.3f", seconds)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
}
