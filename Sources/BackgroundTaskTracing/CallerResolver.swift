import BackgroundTaskKit
import Foundation

/// Turns return addresses into callers: the image the address lies in and the symbol `dladdr` names
/// there, demangled. Each address is looked up once; the tracer's begins from the same line then
/// cost one dictionary look-up.
final class CallerResolver: Sendable {
    private let cache = Locked<[UInt: BackgroundTaskCallSite]>([:])

    /// The caller at `address`; `BackgroundTaskCallSite/unknown` for `nil` or an address in no
    /// image.
    func callSite(for address: UInt?) -> BackgroundTaskCallSite {
        guard let address, address > 1 else { return .unknown }
        if let known = cache.withLock({ $0[address] }) { return known }
        let resolved = Self.resolve(address)
        cache.withLock { $0[address] = resolved }
        return resolved
    }

    /// Asks the dynamic linker. A return address points after the call instruction, so the address
    /// before it is looked up (the call may be a function's last instruction).
    static func resolve(_ address: UInt) -> BackgroundTaskCallSite {
        guard let info = DynamicLinker.info(for: address - 1) else { return .unknown }
        let image = imageName(info.imagePath)
        let offset = address &- info.imageBase
        return BackgroundTaskCallSite(image: image, symbol: info.symbol.map(DynamicLinker.demangle), offset: offset)
    }

    /// The file name of an image path: `AnalyticsSDK` for `…/AnalyticsSDK.framework/AnalyticsSDK`.
    static func imageName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
