// A notification service extension as Apple's Xcode template writes it, finishing from a
// download callback on another queue, and driven by hand as a unit test does: Apple's class
// is not isolated to an actor.
import Foundation
import UserNotifications

/// Xcode's template, with the attachment download replaced by a queue hop.
public class DownloadingNotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    public override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

        if let bestAttemptContent = bestAttemptContent {
            bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"
            download(from: request.content.userInfo["image"] as? String) { _ in
                contentHandler(bestAttemptContent)
            }
        }
    }

    public override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }

    /// Stands in for `URLSession.downloadTask(with:completionHandler:)`: calls back on
    /// another queue.
    func download(from address: String?, completion: @escaping (URL?) -> Void) {
        let box = UncheckedBox(completion)
        DispatchQueue.global().async { box.value(address.flatMap(URL.init(string:))) }
    }
}

/// Carries a non-Sendable callback to another queue, as Objective-C callbacks travel.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A test that calls the extension directly, from nonisolated code, and waits for its answer.
public func runServiceExtensionByHand(title: String) -> String? {
    let content = UNMutableNotificationContent()
    content.title = title
    let request = UNNotificationRequest(identifier: "by-hand", content: content, trigger: nil)
    let service = DownloadingNotificationService()
    let done = DispatchSemaphore(value: 0)
    let answer = ResultBox()
    service.didReceive(request) { content in
        answer.title = content.title
        done.signal()
    }
    guard done.wait(timeout: .now() + 10) == .success else { return nil }
    service.serviceExtensionTimeWillExpire()
    return answer.title
}

/// The answer of ``runServiceExtensionByHand(title:)``, written on another queue.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var title: String? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
