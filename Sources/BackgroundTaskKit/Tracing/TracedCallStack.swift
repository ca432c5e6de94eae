import Foundation

/// The return addresses above an intercepted call: the caller's, and optionally a few more frames.
///
/// An interceptor takes it **first thing** with ``capture(frames:)`` (never inlined, no closures, so
/// the frame layout is the same in debug and release builds): the address at which the intercepted
/// method will return into its caller is then the second frame above `capture`.
public struct TracedCallStack: Sendable {
    /// The return addresses, the caller's first; empty when the platform gave none.
    public let addresses: [UInt]

    /// A call stack made of these addresses (for tests).
    public init(addresses: [UInt]) {
        self.addresses = addresses
    }

    /// The address in the caller at which the intercepted call returns; `nil` when unknown.
    public var callerAddress: UInt? { addresses.first }

    /// Captures the return addresses of the interceptor's caller and, with `frames` above 1, the
    /// frames above it (a short backtrace: costly, so the tracer asks for it only when configured).
    ///
    /// Call it directly in the intercepting method, before anything else: frame 0 of the system's
    /// backtrace is this function, frame 1 the interceptor, frame 2 its caller.
    ///
    /// - Parameter frames: How many frames to keep, from the caller up; clamped to 1...64.
    @inline(never)
    public static func capture(frames: Int = 1) -> TracedCallStack {
        guard let backtrace = DynamicLinker.backtrace else { return TracedCallStack(addresses: []) }
        let kept = min(max(frames, 1), 64)
        let skipped = machineryFrames + 2
        let capacity = kept + skipped
        let buffer = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let count = Int(backtrace(buffer, Int32(capacity)))
        guard count > skipped else { return TracedCallStack(addresses: []) }
        var addresses: [UInt] = []
        addresses.reserveCapacity(count - skipped)
        for index in skipped..<count {
            addresses.append(UInt(bitPattern: buffer[index]))
        }
        return TracedCallStack(addresses: addresses)
    }

    /// Frames that `backtrace` itself puts first, before the frame of the function that called it:
    /// none normally; a sanitizer's interceptor of `backtrace` adds one. Found once, by looking at
    /// the first frames of a backtrace taken the way ``capture(frames:)`` takes its own.
    static let machineryFrames: Int = {
        guard let backtrace = DynamicLinker.backtrace else { return 0 }
        let buffer = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 8)
        defer { buffer.deallocate() }
        let count = Int(backtrace(buffer, 8))
        var machinery = 0
        while machinery < count,
            let symbol = DynamicLinker.info(for: UInt(bitPattern: buffer[machinery]))?.symbol,
            symbol == "backtrace" || symbol.hasPrefix("__interceptor_") || symbol.hasPrefix("___interceptor_")
                || symbol.hasPrefix("__sanitizer") || symbol.hasPrefix("__tsan") || symbol.hasPrefix("__asan")
        {
            machinery += 1
        }
        return machinery
    }()
}
