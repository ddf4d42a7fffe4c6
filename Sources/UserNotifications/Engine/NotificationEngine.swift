import Foundation
import FreedesktopNotifications

/// The engine behind a ``UNUserNotificationCenter``: everything but Apple's surface.
///
/// The center validates nothing and keeps nothing; it forwards each call here, in the order it
/// was made. The engine keeps the pending and delivered lists, fires triggers, posts to the
/// notification service and turns what the service says into responses for the center's
/// ``EngineHost``. The same interface is served in process (``EngineCore``) and, later,
/// by a per-user agent or a sandbox portal, so an implementation may live in another process.
///
/// Order: the methods that return nothing take effect in call order with every other call
/// (a `removePendingRequests` followed by `pendingRequests()` sees the removal), so an
/// implementation must take each call in at once, on the caller's thread.
protocol NotificationEngine: AnyObject, Sendable {
    /// Schedules `request`, or (no trigger, or a push trigger) shows it now; returns once it
    /// is scheduled, shown, or not shown because the host's options show nothing.
    func add(_ request: UNNotificationRequest) async throws
    /// The pending requests, soonest first.
    func pendingRequests() async -> [UNNotificationRequest]
    /// Cancels the pending requests with these identifiers (`nil`: all of them).
    func removePendingRequests(withIdentifiers identifiers: [String]?)
    /// The notifications shown now, oldest first.
    func deliveredNotifications() async -> [UNNotification]
    /// Withdraws shown notifications (`nil`: all of them).
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?)
    /// Replaces the registered categories.
    func setCategories(_ categories: Set<UNNotificationCategory>)
    /// The registered categories.
    func categories() async -> Set<UNNotificationCategory>
    /// Records the answer of an authorization request: granted when a server is reachable
    /// and the desktop does not turn the app's notifications off.
    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool
    /// The authorization recorded, with what the server can do (`nil` when none is reachable).
    func authorization() async -> EngineAuthorization
    /// Shows `count` on the app's launcher icon.
    func setBadgeCount(_ count: Int) async throws
    /// Writes a waiting state save now; throws why the state is not kept, if it is not.
    func writeStateNow() async throws
    /// Takes the response the app was activated for (`org.freedesktop.Application.ActivateAction`
    /// of `app.notification-response`, called by the bus peer `sender`), with its activation
    /// token, and hands it to the host; `false` when there is none to take (logged where it is
    /// refused).
    ///
    /// The agent's engine takes the responses the agent keeps for the app, in the agent's
    /// order, each once: response `id` and those queued before it are among them, and
    /// `activationToken` goes on response `id` when the agent's copy has none. The portal's
    /// and GNOME's engines read `id` as the target of their own action (``PortalResponseID``,
    /// ``GnomeActionTarget``) and take it only from their service's owner. The in-process
    /// engine keeps none.
    func takeActivatedResponse(_ id: String, activationToken: String?, sender: String) async -> Bool
    /// The host's content extensions changed (``EngineHost/contentExtensionCategories``): an
    /// engine whose notifications are posted by another process tells it.
    func contentExtensionsChanged()
    /// The center now serves `org.freedesktop.Application` for the app
    /// (``UNUserNotificationCenter/serveApplicationInterface()``): an engine whose actions can
    /// relaunch the app through it sends them that way from the next post on.
    func applicationInterfaceServed()
    /// Stops the engine when its center goes: no call is taken after it.
    func close()
    /// Where the engine keeps the app's notifications; an engine that chooses answers once the
    /// choice is made and the calls made before were handed on (``ChoosingEngine``).
    func kind() async -> NotificationEngineKind
    /// Why an engine tried before this one was not used; `nil` when none was.
    func fallback() async -> NotificationEngineFallback?
    /// The agent's engine this one is or hands its calls to, for the agent's own interfaces
    /// (push registration) and the bench's counts; `nil` when the notifications do not live in
    /// the agent (or the choice is not made yet).
    var agentEngine: AgentEngine? { get }
}

extension NotificationEngine {
    /// No engine was tried before this one.
    func fallback() async -> NotificationEngineFallback? { nil }

    /// The notifications do not live in the agent.
    var agentEngine: AgentEngine? { nil }

    /// Nothing to tell: the engine asks its host about content extensions as it posts and as
    /// responses come.
    func contentExtensionsChanged() {}

    /// Nothing to do: the engine's actions do not go through the app's interface, or the
    /// engine asks the bus itself.
    func applicationInterfaceServed() {}
}

/// What ``NotificationEngine/authorization()`` reports.
package struct EngineAuthorization: Sendable {
    package var status: UNAuthorizationStatus
    package var options: UNAuthorizationOptions
    /// The server's capabilities, or `nil` when no server is reachable.
    package var capabilities: Set<NotificationCapability>?
    /// Whether location triggers can be watched (``UNNotificationSettings/locationSetting``).
    package var location: UNNotificationSetting = .notSupported
}
