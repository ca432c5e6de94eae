import BackgroundTaskKit
import Foundation
import Testing

struct UnlimitedBackendTests {
    // MARK: - UnlimitedBackend

    @Test func everyBeginIsGrantedADistinctIdentifier() {
        let backend = UnlimitedBackend()

        let identifiers = (0..<100).compactMap { _ in
            backend.beginBackgroundTask(named: "Flush", expirationHandler: nil)
        }

        #expect(identifiers.count == 100)
        #expect(Set(identifiers).count == 100)
    }

    @Test func timeRemainingIsUnlimited() {
        #expect(UnlimitedBackend().backgroundTimeRemaining == nil)
    }

    // MARK: - Static accessors

    @Test func unlimitedAccessorIsOneSharedBackend() throws {
        let first = try #require(Self.begin(using: .unlimited))
        let second = try #require(Self.begin(using: .unlimited))

        #expect(first != second)
    }

    #if !canImport(Darwin)
        @Test func platformDefaultIsUnlimitedWhereNothingSuspends() {
            let backend: some BackgroundTaskBackend = .platformDefault

            #expect(backend is UnlimitedBackend)
            #expect(Self.begin(using: .platformDefault) != nil)
            #expect(backend.backgroundTimeRemaining == nil)
        }
    #endif

    private static func begin(using backend: some BackgroundTaskBackend) -> BackgroundTaskIdentifier? {
        backend.beginBackgroundTask(named: "Flush", expirationHandler: nil)
    }
}
