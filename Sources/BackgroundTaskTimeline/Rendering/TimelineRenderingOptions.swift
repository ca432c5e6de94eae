/// How a timeline is drawn: the picture's width and how many lanes are drawn one by one.
///
/// Values out of range have a documented meaning, never a trap: ``width`` is kept between 480 and 4,000 points,
/// ``maximumLanes`` and ``textColumns`` are at least 1 (and at most 100,000 and 1,000).
public struct TimelineRenderingOptions: Equatable, Sendable {
    /// The SVG's width in points. Default 960.
    public var width: Int
    /// The most lanes drawn one by one in each timeline. Beyond it, lanes that ended cleanly fold into a density
    /// band (how many were held at each moment), and lanes with a problem stay visible, the worst first; if those
    /// alone are too many, the rest fold into a second band. Default 30.
    public var maximumLanes: Int
    /// The columns of the plain-text chart, not counting its labels. Default 60.
    public var textColumns: Int

    /// Creates options.
    public init(width: Int = 960, maximumLanes: Int = 30, textColumns: Int = 60) {
        self.width = width
        self.maximumLanes = maximumLanes
        self.textColumns = textColumns
    }

    var clampedWidth: Int { min(max(width, 480), 4_000) }
    var clampedMaximumLanes: Int { min(max(maximumLanes, 1), 100_000) }
    var clampedTextColumns: Int { min(max(textColumns, 1), 1_000) }
}
