/// Aligns rows of cells into columns, two spaces apart; the last column is not padded.
enum TextTable {
    static func render(header: [String], rows: [[String]], indent: String = "") -> [String] {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            indent
                + row.enumerated()
                .map { column, cell in
                    column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }
                .joined(separator: "  ")
        }
    }
}
