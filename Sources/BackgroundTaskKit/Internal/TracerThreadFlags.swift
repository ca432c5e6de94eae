import Foundation

/// Per-thread flags that keep the tracer from counting a call twice: set while an intercepted begin or end runs on this
/// thread (the original may call another intercepted method, as UIKit's two public begins reach one private one), and
/// while this package's backend calls the application (its ledger has those calls). One `pthread` key holding the bits
/// in the pointer value: no allocation, two calls per use.
package enum TracerThreadFlags {
    package static let insideInterception = 1  // set while an intercepted call runs on this thread
    package static let packageCall = 2  // set while this package's backend calls the application on this thread

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    package static var current: Int {
        Int(bitPattern: pthread_getspecific(key))
    }

    /// Runs `body` with `flag` set on this thread, restoring the flags after.
    @inline(__always)
    package static func with<Result>(_ flag: Int, _ body: () throws -> Result) rethrows -> Result {
        let previous = current
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: previous | flag))
        defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: previous)) }
        return try body()
    }

    /// Runs `body` with no flag set on this thread, restoring the flags after: an owner's expiration handler called
    /// inside an intercepted begin is the owner's code, whose calls must be traced.
    @inline(__always)
    package static func cleared<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = current
        guard previous != 0 else { return try body() }
        pthread_setspecific(key, nil)
        defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: previous)) }
        return try body()
    }

    /// Runs `body`, a call of this package's backend to the application, unseen by the tracer.
    @inline(__always)
    package static func packageCall<Result>(_ body: () throws -> Result) rethrows -> Result {
        try with(packageCall, body)
    }
}
