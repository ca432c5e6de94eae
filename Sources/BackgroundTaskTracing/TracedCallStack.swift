import BackgroundTaskKit
import Foundation

/// The return addresses above an intercepted call: the caller's, and optionally a few more frames.
///
/// An interceptor takes it **first thing** with ``capture(frames:skipping:)`` (never inlined, no
/// closures): the address at which the intercepted method will return into its caller is then the
/// second frame above `capture`, or further up when the interceptor runs inside frames of its own (a
/// block's invoke function calling a Swift closure): ``interceptorFrames(in:caller:)`` measures
/// how many.
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
    /// - Parameters:
    ///   - frames: How many frames to keep, from the caller up; clamped to 1...64.
    ///   - interceptorFrames: Frames between the function that calls `capture` and the caller of the
    ///     intercepted method, as ``interceptorFrames(in:caller:)`` measured them; clamped to 0...8.
    @inline(never)
    public static func capture(frames: Int = 1, skipping interceptorFrames: Int = 0) -> TracedCallStack {
        guard let backtrace = DynamicLinker.backtrace else { return TracedCallStack(addresses: []) }
        let kept = min(max(frames, 1), 64)
        let skipped = machineryFrames + 2 + min(max(interceptorFrames, 0), 8)
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

    /// How many frames an interceptor puts between the function that calls
    /// ``capture(frames:skipping:)`` and the code that called the intercepted method, measured once:
    /// a known function takes ``returnAddressInCaller()``, then calls, directly and through exactly the
    /// interceptor's path (the same kind of block, thunk and closure), a probe that returns
    /// `capture(frames: 16)`; this finds the known function's frame in what the probe captured. `0`
    /// when it cannot tell.
    ///
    /// - Parameters:
    ///   - stack: What the probe captured.
    ///   - reference: ``returnAddressInCaller()``, taken in the function that called the probe.
    public static func interceptorFrames(in stack: TracedCallStack, caller reference: UInt) -> Int {
        frameIndex(nearest: reference, in: stack.addresses) ?? 0
    }

    /// An address inside the function that calls this one: the return address of this very call.
    @inline(never)
    public static func returnAddressInCaller() -> UInt {
        capture().callerAddress ?? 0
    }

    /// The index of the address in `addresses` closest to `reference` and no more than 4 KB from it
    /// (the same function: both are return addresses of calls it makes), or `nil`.
    static func frameIndex(nearest reference: UInt, in addresses: [UInt]) -> Int? {
        guard reference != 0 else { return nil }
        let distances = addresses.map { $0 > reference ? $0 - reference : reference - $0 }
        guard let nearest = distances.indices.min(by: { distances[$0] < distances[$1] }),
            distances[nearest] < 4096
        else { return nil }
        return nearest
    }

    /// Frames that `backtrace` itself puts first, before the frame of the function that called it:
    /// none normally; a sanitizer's interceptor of `backtrace` adds one. Found once, by looking at
    /// the first frames of a backtrace taken the way ``capture(frames:skipping:)`` takes its own.
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
