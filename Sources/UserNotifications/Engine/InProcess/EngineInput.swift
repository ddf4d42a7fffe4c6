import Foundation
import FreedesktopNotifications

/// What reaches an ``InProcessEngine``, through one ordered inbox: the center's calls in call
/// order, and the notification client's channel in the order the socket gave it.
enum EngineInput: Sendable {
    case add(UNNotificationRequest, CheckedContinuation<Void, any Error>)
    case pendingRequests(CheckedContinuation<[UNNotificationRequest], Never>)
    case removePending([String]?)
    case deliveredNotifications(CheckedContinuation<[UNNotification], Never>)
    case removeDelivered([String]?)
    case setCategories(Set<UNNotificationCategory>)
    case categories(CheckedContinuation<Set<UNNotificationCategory>, Never>)
    case setAuthorization(UNAuthorizationStatus, UNAuthorizationOptions)
    case authorization(CheckedContinuation<(UNAuthorizationStatus, UNAuthorizationOptions), Never>)
    case writeStateNow(CheckedContinuation<Void, any Error>)
    case channel(NotificationChannelItem)
}
