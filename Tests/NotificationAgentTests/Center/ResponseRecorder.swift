import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// A delegate that counts the responses it gets, by identifier and action.
final class ResponseRecorder: NSObject, UNUserNotificationCenterDelegate, Sendable {
    private let lines = Locked<[String]>([])

    var received: [String] { lines.withLock { $0 } }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        lines.withLock { $0.append("\(response.notification.request.identifier) \(response.actionIdentifier)") }
    }
}
