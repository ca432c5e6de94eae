/// Lines and columns of UTF-8 offsets in one file's text, found by a binary search over where each line starts. It
/// counts lines as the Swift parser does (`\n`, `\r\n` and a lone `\r` each end one) without walking the syntax tree,
/// which `SourceLocationConverter` does once per file.
struct LineTable: Sendable {
    /// The UTF-8 offset each line starts at, in order; the first is 0.
    private let starts: [Int]

    /// Reads where the lines of `bytes` start.
    init(_ bytes: some Collection<UInt8>) {
        var starts = [0]
        var offset = 0
        var afterReturn = false
        for byte in bytes {
            offset += 1
            if byte == UInt8(ascii: "\n") {
                if afterReturn {
                    starts[starts.count - 1] = offset
                } else {
                    starts.append(offset)
                }
                afterReturn = false
            } else if byte == UInt8(ascii: "\r") {
                starts.append(offset)
                afterReturn = true
            } else {
                afterReturn = false
            }
        }
        self.starts = starts
    }

    /// The 1-based line and UTF-8 column of `offset`.
    func location(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = starts.count - 1
        // The last line that starts at or before `offset`.
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}
