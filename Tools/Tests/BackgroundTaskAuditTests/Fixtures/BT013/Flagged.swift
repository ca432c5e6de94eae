// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class FeedViewController: UIViewController {
    // sample: registered when the first screen loads, after launch
    override func viewDidLoad() {
        super.viewDidLoad()
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in  // expect: BT013
            task.expirationHandler = { feed.cancel() }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
    }
}

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    // sample: registered when a scene connects, after didFinishLaunching returned
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in  // expect: BT013
            task.expirationHandler = { database.interrupt() }
            database.compact { task.setTaskCompleted(success: true) }
        }
    }

    // sample: registered each time the app becomes active
    func sceneDidBecomeActive(_ scene: UIScene) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in  // expect: BT013
            task.expirationHandler = { sync.cancel() }
            sync.run { task.setTaskCompleted(success: true) }
        }
    }
}
