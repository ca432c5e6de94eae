import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG document read back with an XML parser, so that tests assert on what the picture holds (its lanes, their
/// times, the termination's code) and on it being well-formed XML.
package struct SVGDocument {
    /// One element, with its attributes, its own text and its children.
    package final class Element {
        package let name: String
        package let attributes: [String: String]
        package var text = ""
        package var children: [Element] = []

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// Its classes.
        package var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

        /// Every element below it (depth first) whose classes include `className`.
        package func all(withClass className: String) -> [Element] {
            var found: [Element] = []
            for child in children {
                if child.classes.contains(className) { found.append(child) }
                found += child.all(withClass: className)
            }
            return found
        }

        /// Every element below it named `name`.
        package func all(named name: String) -> [Element] {
            var found: [Element] = []
            for child in children {
                if child.name == name { found.append(child) }
                found += child.all(named: name)
            }
            return found
        }

        /// The text of its first `<title>` child: what hover and screen readers give it.
        package var title: String? { children.first { $0.name == "title" }?.text }

        /// `data-NAME` as a number.
        package func number(_ name: String) -> Double? {
            attributes["data-\(name)"].flatMap(Double.init)
        }
    }

    /// The `<svg>` element.
    package let root: Element

    /// Parses `text`; `nil` when it is not well-formed XML.
    package init?(_ text: String) {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        guard parser.parse(), let root = reader.root else { return nil }
        self.root = root
    }

    /// The panels, top to bottom.
    package var panels: [Element] { root.all(withClass: "panel") }

    private final class Reader: NSObject, XMLParserDelegate {
        var root: Element?
        var stack: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = Element(name: elementName, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
