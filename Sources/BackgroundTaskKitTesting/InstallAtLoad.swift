// Installs the test kit's attribution of begins to tests (`TestAttribution`) when the test binary loads, so that
// `withBackgroundTaskBackend` scopes in parallel Swift Testing tests never blame each other, with nothing to call
// first; and the attachment of a failing expectation's timeline to its test (`TimelineAttachments`). A load-time
// initializer needs section placement (Swift 6.3); with older compilers both are installed by the
// `.backgroundTaskSimulator` trait, and scopes entered before that behave as in XCTest.
#if compiler(>=6.3)
    private func installTestAttributionAtLoad() {
        TestAttribution.install()
        TimelineAttachments.install()
    }

    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @used @section(".init_array")
        private let testAttributionInitializer: @convention(c) () -> Void = installTestAttributionAtLoad
    #elseif canImport(Darwin)
        @used @section("__DATA,__mod_init_func")
        private let testAttributionInitializer: @convention(c) () -> Void = installTestAttributionAtLoad
    #endif
#endif
