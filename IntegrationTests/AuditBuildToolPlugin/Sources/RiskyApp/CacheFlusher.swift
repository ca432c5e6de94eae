/// A raw begin without an expiration handler: an error-severity rule (BT003). The build-tool plugin must print it
/// as a warning (`warning: [BT003] (error) …`): findings never count as build errors.
func flushCache(with application: StandInApplication, flush: () -> Void) {
    let task = application.beginBackgroundTask(withName: "Flush cache", expirationHandler: nil)
    flush()
    application.endBackgroundTask(task)
}
