import Foundation

/// Runs CPU-heavy synchronous work on a thread of its own, so that it does not hold one of the few
/// threads of Swift concurrency's cooperative pool, which other suites' async tests need meanwhile.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
