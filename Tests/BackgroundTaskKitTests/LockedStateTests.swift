import BackgroundTaskKit
import Testing

private struct HoldsAHandler {
    var handler: () -> Void
}

private final class BoxesAHandler {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}

/// `Locked` refuses (in debug builds) the states whose closures would be wrapped again at every access:
/// a closure, an optional closure, a tuple that holds one. A closure in a struct or class field, or in
/// a collection, is kept as it is.
struct LockedStateTests {
    @Test(
        arguments: [
            (@Sendable (Int) -> Void).self,
            ((@Sendable () -> Void)?).self,
            ((@MainActor @Sendable () -> Void)?).self,
            ((() -> Void)?)?.self,
            ((Int) throws -> Int).self,
            (() async -> Void).self,
            ((Int) -> (Int) -> Int)?.self,
            (task: Int?, run: () -> Void).self,
            (Int?, (Int, () -> Void)).self,
            (count: Int, run: (() -> Void)?)?.self,
        ] as [Any.Type])
    func aClosureReachedWithoutAStructAroundItIsRefused(type: Any.Type) {
        #expect(LockedState.holdsClosureDirectly(type), "\(type)")
    }

    @Test(
        arguments: [
            Int.self, String?.self, (count: Int, armed: Bool).self, [() -> Void].self, [Int: () -> Void].self,
            HoldsAHandler.self, HoldsAHandler?.self, BoxesAHandler.self, Result<Int, any Error>.self,
            (Int, [Int: (Int) -> Void]).self, Set<Int>?.self,
        ] as [Any.Type])
    func aClosureInAFieldOrACollectionIsAccepted(type: Any.Type) {
        #expect(!LockedState.holdsClosureDirectly(type), "\(type)")
    }
}
