/// Appends SVG elements to a string: escaping, numbers and the few shapes the timelines use.
struct SVGBuilder {
    private(set) var output = ""

    init(capacity: Int) {
        output.reserveCapacity(capacity)
    }

    mutating func raw(_ text: String) {
        output += text
    }

    /// Opens a group with these attributes (values escaped).
    mutating func open(_ element: String, _ attributes: [(String, String)] = []) {
        output += "<" + element
        for (name, value) in attributes { output += " \(name)=\"\(Self.escape(value))\"" }
        output += ">"
    }

    mutating func close(_ element: String) {
        output += "</\(element)>"
    }

    /// A `<title>`: the words a pointer's hover and a screen reader give the element it is the first child of.
    mutating func title(_ text: String) {
        output += "<title>" + Self.escape(text) + "</title>"
    }

    mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 12, fill: String = "#222222", weight: String? = nil,
        anchor: String? = nil, className: String? = nil
    ) {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        if let className { attributes += " class=\"\(className)\"" }
        output += "<text \(attributes)>" + Self.escape(content) + "</text>"
    }

    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil,
        className: String? = nil, extra: String = "", title: String? = nil
    ) {
        var attributes =
            "x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(width, 0)))\" height=\"\(n(height))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        if let className { attributes += " class=\"\(className)\"" }
        element("rect", attributes + extra, title: title)
    }

    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dashed: Bool = false,
        className: String? = nil
    ) {
        var attributes =
            "x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\""
        if dashed { attributes += " stroke-dasharray=\"4 3\"" }
        if let className { attributes += " class=\"\(className)\"" }
        output += "<line \(attributes)/>"
    }

    /// The shapes of marks and moments, told apart by form as well as colour.
    enum Shape {
        case diamond, triangle, cross, tick, circle, square
    }

    mutating func shape(
        _ shape: Shape, x: Double, y: Double, radius r: Double, fill: String, className: String, extra: String,
        title: String
    ) {
        let path: String
        switch shape {
        case .diamond: path = "M\(n(x)) \(n(y - r))L\(n(x + r)) \(n(y))L\(n(x)) \(n(y + r))L\(n(x - r)) \(n(y))Z"
        case .triangle: path = "M\(n(x)) \(n(y - r))L\(n(x + r)) \(n(y + r))L\(n(x - r)) \(n(y + r))Z"
        case .cross:
            path = "M\(n(x - r)) \(n(y - r))L\(n(x + r)) \(n(y + r))M\(n(x + r)) \(n(y - r))L\(n(x - r)) \(n(y + r))"
        case .tick: path = "M\(n(x)) \(n(y - r))L\(n(x)) \(n(y + r))"
        case .square:
            let side = r * 0.8
            path =
                "M\(n(x - side)) \(n(y - side))L\(n(x + side)) \(n(y - side))L\(n(x + side)) \(n(y + side))L\(n(x - side)) \(n(y + side))Z"
        case .circle:
            path = "M\(n(x - r)) \(n(y))a\(n(r)) \(n(r)) 0 1 0 \(n(2 * r)) 0a\(n(r)) \(n(r)) 0 1 0 \(n(-2 * r)) 0Z"
        }
        let paint =
            shape == .cross || shape == .tick
            ? "fill=\"none\" stroke=\"\(fill)\" stroke-width=\"2\""
            : "fill=\"\(fill)\" stroke=\"#ffffff\" stroke-width=\"0.8\""
        element("path", "d=\"\(path)\" \(paint) class=\"\(className)\"\(extra)", title: title)
    }

    mutating func path(_ d: String, fill: String, className: String) {
        output += "<path d=\"\(d)\" fill=\"\(fill)\" class=\"\(className)\"/>"
    }

    private mutating func element(_ name: String, _ attributes: String, title: String?) {
        if let title {
            output += "<\(name) \(attributes)>"
            self.title(title)
            output += "</\(name)>"
        } else {
            output += "<\(name) \(attributes)/>"
        }
    }

    /// ` name="value"`, escaped, for the `extra` parameters.
    static func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(escape(value))\""
    }

    func n(_ value: Double) -> String {
        TimelineNumber.coordinate(value)
    }

    /// Text safe in XML content and attribute values; characters XML 1.0 forbids (controls, U+FFFE, U+FFFF) become
    /// U+FFFD, and tabs and line breaks spaces.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { "&<>\"'".unicodeScalars.contains($0) || isForbidden($0) })
        else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped += " "
            default:
                if isForbidden(scalar) { escaped += "\u{FFFD}" } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    /// Whether XML 1.0 forbids `scalar` (or it is a tab or line break, which attributes would fold).
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// `text` in lines of at most `limit` characters, broken at spaces where it can be, one line per line break.
    static func wrap(_ text: String, to limit: Int) -> [String] {
        let limit = max(limit, 8)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = Substring(word)
                while word.count > limit {
                    if !line.isEmpty {
                        lines.append(line)
                        line = ""
                    }
                    lines.append(String(word.prefix(limit)))
                    word = word.dropFirst(limit)
                }
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= limit {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` cut to `limit` characters, with an ellipsis when cut.
    static func truncate(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(limit - 1, 0))) + "…"
    }
}
