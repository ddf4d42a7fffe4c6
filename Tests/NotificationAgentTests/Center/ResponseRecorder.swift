import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// A delegate that counts the responses it gets, by identifier and action, and keeps their
/// activation tokens.
final class ResponseRecorder: NSObject, UNUserNotificationCenterDelegate, Sendable {
    private let lines = Locked<[String]>([])
    private let tokens = Locked<[String?]>([])

    var received: [String] { lines.withLock { $0 } }
    /// Each response's activation token, in order.
    var activationTokens: [String?] { tokens.withLock { $0 } }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        tokens.withLock { $0.append(response.activationToken) }
        lines.withLock { $0.append("\(response.notification.request.identifier) \(response.actionIdentifier)") }
    }
}
