import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

extension Scenario {
    /// An app extension saves through `ProcessInfo.performExpiringActivity`: the first invocation
    /// keeps the assertion while it blocks for the save, and ignores the second invocation that
    /// says time is up. The save outlasts the budget, the assertion is still held, and the system
    /// kills the extension. The faces run over `ExpiringActivityBackend`, the extension's backend.
    static let extensionActivity = Scenario(
        id: "extension-activity",
        summary: "An extension's expiring activity ignores `expired == true` and keeps its assertion.",
        backend: { ExpiringActivityBackend($0) },
        naive: { simulator, _ in
            let save = DispatchSemaphore(value: 0)  // the save outlasts the budget
            // The bug on purpose: a raw activity, written the naive way. bgtask:ignore BT001
            simulator.performExpiringActivity(withReason: "Save shared photo") { expired in
                if !expired { save.wait() }  // ignores the expiry: the assertion stays held
            }
            _ = try? await simulator.waitForBegins(1, timeout: 2)
            simulator.enterBackground()
            simulator.advance(by: 60)
            save.signal()  // lets the thread go once the run is over
        },
        flow: { simulator, tasks in
            let task = await tasks.start("Save shared photo")
            simulator.enterBackground()
            simulator.advance(by: 60)  // the save outlasts the budget: the face ends the task
            await task.end()
        }
    )
}
