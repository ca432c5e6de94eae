import BackgroundTaskKit

/// The simulator's `n`th identifier, in expected events and console messages.
package func id(_ rawValue: Int) -> BackgroundTaskIdentifier {
    BackgroundTaskIdentifier(rawValue: rawValue)
}
