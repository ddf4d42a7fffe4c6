import Foundation
import FreedesktopNotifications

/// What reaches an ``EngineCore``, through one ordered inbox: the center's calls in call
/// order, and the notification client's channel in the order the socket gave it.
enum EngineInput: Sendable {
    /// A request to add, with the presentation options given with it (an immediate request
    /// whose app answered before sending it to the agent), or `nil` to ask the host, and the
    /// open files its attachments' bytes are read from (the agent's `AddFiles`), or `nil` to
    /// open the paths the attachments name.
    case add(UNNotificationRequest, UNNotificationPresentationOptions?, files: [Int32]?, EngineAnswer<Result<Void, any Error>>)
    case pendingRequests(EngineAnswer<[UNNotificationRequest]>)
    case removePending([String]?)
    case deliveredNotifications(EngineAnswer<[UNNotification]>)
    case removeDelivered([String]?)
    case setCategories(Set<UNNotificationCategory>)
    case categories(EngineAnswer<Set<UNNotificationCategory>>)
    case setAuthorization(UNAuthorizationStatus, UNAuthorizationOptions)
    case authorization(EngineAnswer<EngineAuthorizationRecord>)
    case channel(TransportItem)
    /// A click that came through `org.freedesktop.Application.ActivateAction`, and whether
    /// the engine took it.
    case click(ServiceClick, EngineAnswer<Bool>)
    /// The delegate's answer for the delivery `tag`.
    case presented(tag: UInt64, UNNotificationPresentationOptions)
    /// The center has gone: the channel closes and a waiting save is written (started, when
    /// the engine saves off its actor).
    case close
}

/// The authorization answer the engine keeps.
struct EngineAuthorizationRecord: Sendable {
    var status: UNAuthorizationStatus
    var options: UNAuthorizationOptions
}
