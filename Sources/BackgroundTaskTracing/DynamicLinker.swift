import BackgroundTaskKit
import Foundation

/// `backtrace(3)`, `dladdr(3)` and the Swift runtime's demangler, looked up once with `dlsym`.
///
/// They exist on Linux and on every Apple platform, but Glibc's module does not declare `dladdr` or
/// `backtrace` to Swift (they need `_GNU_SOURCE`), so one path serves both: the symbols are found
/// at run time and called through C function pointers. A platform without one of them gets empty
/// backtraces and unresolved addresses, never a crash.
enum DynamicLinker {
    typealias BacktraceFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
    /// `dladdr`'s `Dl_info` is four pointers on every platform: file name, image base, symbol name,
    /// symbol address; passed as an array of four raw pointers.
    private typealias AddressInfoFunction =
        @convention(c) (UnsafeRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>) -> Int32
    private typealias DemangleFunction =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?

    private struct Functions: @unchecked Sendable {  // C function pointers, immutable
        let backtrace: BacktraceFunction?
        let addressInfo: AddressInfoFunction?
        let demangle: DemangleFunction?
    }

    private static let functions: Functions = {
        let process = dlopen(nil, RTLD_NOW)
        func find<Function>(_ name: String, as _: Function.Type) -> Function? {
            guard let symbol = dlsym(process, name) else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }
        return Functions(
            backtrace: find("backtrace", as: BacktraceFunction.self),
            addressInfo: find("dladdr", as: AddressInfoFunction.self),
            demangle: find("swift_demangle", as: DemangleFunction.self)
        )
    }()

    /// `backtrace(3)`: fills a buffer with up to `capacity` return addresses of the calling thread and
    /// returns how many. Called directly through the pointer, so that it adds no frame of its own.
    static var backtrace: BacktraceFunction? { functions.backtrace }

    /// What the dynamic linker knows about an address: the image's path and base, the nearest
    /// exported symbol and its address.
    struct AddressInfo {
        var imagePath: String
        var imageBase: UInt
        var symbol: String?
        var symbolAddress: UInt?
    }

    /// Looks `address` up with `dladdr`; `nil` when it lies in no loaded image.
    static func info(for address: UInt) -> AddressInfo? {
        guard let addressInfo = functions.addressInfo, address != 0 else { return nil }
        var fields: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        let found = withUnsafeMutablePointer(to: &fields) { tuple in
            tuple.withMemoryRebound(to: UnsafeRawPointer?.self, capacity: 4) { pointer in
                addressInfo(UnsafeRawPointer(bitPattern: address), pointer)
            }
        }
        guard found != 0, let path = fields.0 else { return nil }
        return AddressInfo(
            imagePath: String(cString: path.assumingMemoryBound(to: CChar.self)),
            imageBase: UInt(bitPattern: fields.1),
            symbol: fields.2.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) },
            symbolAddress: fields.3.map { UInt(bitPattern: $0) }
        )
    }

    /// A Swift symbol demangled (`$s…`), or the symbol unchanged (C and Objective-C names, or when
    /// the runtime's demangler is not found).
    static func demangle(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s"), let demangle = functions.demangle else {
            return symbol
        }
        let result = symbol.withCString { demangle($0, strlen($0), nil, nil, 0) }
        guard let result else { return symbol }
        defer { free(result) }
        return String(cString: result)
    }
}
