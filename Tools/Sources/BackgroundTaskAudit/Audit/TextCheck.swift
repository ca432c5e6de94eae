/// Decides whether a file's bytes are text the lexer should read.
enum TextCheck {
    enum Verdict: Equatable {
        case text
        case binary
        case invalidUTF8(offset: Int)
    }

    /// NUL bytes anywhere mean binary; otherwise the bytes must be well-formed UTF-8.
    static func classify(_ bytes: [UInt8]) -> Verdict {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                let lead = buffer[index]
                if lead < 0x80 {
                    if lead == 0 { return .binary }
                    index += 1
                    continue
                }
                let length: Int
                var minimum: UInt32
                var scalar: UInt32
                switch lead {
                case 0xC2...0xDF:
                    length = 2
                    minimum = 0x80
                    scalar = UInt32(lead & 0x1F)
                case 0xE0...0xEF:
                    length = 3
                    minimum = 0x800
                    scalar = UInt32(lead & 0x0F)
                case 0xF0...0xF4:
                    length = 4
                    minimum = 0x10000
                    scalar = UInt32(lead & 0x07)
                default:
                    return .invalidUTF8(offset: index)
                }
                guard index + length <= count else { return .invalidUTF8(offset: index) }
                for offset in 1..<length {
                    let continuation = buffer[index + offset]
                    guard continuation & 0xC0 == 0x80 else { return .invalidUTF8(offset: index) }
                    scalar = scalar << 6 | UInt32(continuation & 0x3F)
                }
                guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                    return .invalidUTF8(offset: index)
                }
                index += length
            }
            return .text
        }
    }
}
