// Completion-handler code as Apple-platform apps write it: handlers that capture a
// non-Sendable `self`, mutate a captured `var`, or are method references. Apple's
// declarations come from Objective-C and are `@preconcurrency`, so on Apple platforms this
// compiles in the Swift 5 language mode and, with warnings at most, in Swift 6 mode.
import Foundation
import UserNotifications

/// A view model such as apps keep for a settings screen: a plain class, not `Sendable`.
public final class NotificationSettingsModel {
    public private(set) var granted = false
    public private(set) var authorizationStatus: UNAuthorizationStatus = .notDetermined
    public private(set) var pendingIdentifiers: [String] = []
    public private(set) var deliveredIdentifiers: [String] = []
    public private(set) var categoryIdentifiers: Set<String> = []
    public private(set) var lastError: (any Error)?

    public init() {}

    public func requestPermission(from center: UNUserNotificationCenter) {
        center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in
            self.granted = granted
            self.lastError = error
        }
    }

    public func refresh(from center: UNUserNotificationCenter) {
        center.getNotificationSettings { settings in
            self.authorizationStatus = settings.authorizationStatus
        }
        center.getPendingNotificationRequests { requests in
            self.pendingIdentifiers = requests.map(\.identifier)
        }
        center.getDeliveredNotifications { notifications in
            self.deliveredIdentifiers = notifications.map(\.request.identifier)
        }
        center.getNotificationCategories { categories in
            self.categoryIdentifiers = Set(categories.map(\.identifier))
        }
    }

    public func schedule(_ request: UNNotificationRequest, on center: UNUserNotificationCenter) {
        center.add(request) { error in
            self.lastError = error
        }
        center.setBadgeCount(1) { error in
            if let error { self.lastError = error }
        }
    }

    /// A method reference as the handler.
    public func refreshStatus(from center: UNUserNotificationCenter) {
        center.getNotificationSettings(completionHandler: updateStatus)
        center.requestAuthorization(options: .alert, completionHandler: permissionAnswered)
        center.add(UNNotificationRequest(identifier: "shape", content: UNNotificationContent(), trigger: nil),
                   withCompletionHandler: added)
    }

    private func updateStatus(_ settings: UNNotificationSettings) {
        authorizationStatus = settings.authorizationStatus
    }

    private func permissionAnswered(_ granted: Bool, _ error: (any Error)?) {
        self.granted = granted
    }

    private func added(_ error: (any Error)?) {
        lastError = error
    }
}

/// A captured `var` mutated by the handler, as in a quick check before a semaphore wait.
public func pendingCountShape(_ center: UNUserNotificationCenter) -> Int {
    var count = 0
    center.getPendingNotificationRequests { requests in
        count = requests.count
    }
    return count
}
