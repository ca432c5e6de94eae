// An example input of `bgtask audit`, shown with its output in Documentation/Audit.md (a test keeps the two equal).
// It is not built: UIKit code with the bugs the audit finds.
import UIKit

final class PhotoUploader {
    private var task = UIBackgroundTaskIdentifier.invalid
    private let session = URLSession.shared

    func refresh() {
        task = UIApplication.shared.beginBackgroundTask(withName: "Refresh photos") {
            // The handler must end the task before it returns; this ends it later.
            DispatchQueue.main.async {
                UIApplication.shared.endBackgroundTask(self.task)
                self.task = .invalid
            }
        }
        session.dataTask(with: URL(string: "https://example.com/photos")!) { _, _, _ in
            UIApplication.shared.endBackgroundTask(self.task)
            self.task = .invalid
        }.resume()
    }

    func upload(_ data: Data) {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(identifier)
        }
        session.uploadTask(with: URLRequest(url: URL(string: "https://example.com/upload")!), from: data) { _, _, _ in
            UIApplication.shared.endBackgroundTask(identifier)
        }.resume()
    }
}
