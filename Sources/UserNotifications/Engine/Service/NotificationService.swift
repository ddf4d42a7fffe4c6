import DBus
import Foundation
import FreedesktopNotifications

/// Where the engine core sends the app's notifications, through ``ServiceTransport``, when they
/// do not go to the freedesktop service: a service that shows and withdraws
/// them by the request's identifier and keeps nothing the engine could read back (no
/// scheduler, no list of what it shows, no word when a notification closes). The portal
/// (``PortalService``) and GNOME Shell's `org.gtk.Notifications` (``GnomeService``) are such
/// services.
///
/// A service is the wire alone: it turns a notification into its call, and what the person did
/// into a ``ServiceClick``. The engine does everything else, the same way for every service:
/// validation, the pending list and its triggers (dated and location), the delivered list,
/// categories, authorization, the state file, one delivery at a time per identifier, and
/// turning a click into the delegate's response. Adding a service is one type and one rule in
/// ``EngineChoice``.
protocol NotificationService: AnyObject, Sendable {
    /// What the center reports as its engine.
    var kind: NotificationEngineKind { get }
    /// The service's bus name: the `server` under which the engine saves its delivered
    /// notifications in the app's state file. No notification server's unique name can equal
    /// it, so the engine of the freedesktop service, reading the same file, keeps none of them
    /// as its own, and each service's engine keeps only its own.
    var busName: String { get }
    /// The app's connection to the session bus, on which the service is reached. The engine
    /// sends the launcher's badge on it, and closes it with the engine.
    var connection: DBusConnection { get }
    /// Whether the engine withdraws an identifier it does not list: GNOME keeps an earlier
    /// launch's notifications and ignores an id it does not show; the portal is only told of
    /// what the engine lists.
    var withdrawsUnlisted: Bool { get }

    /// Starts hearing the service's own events: each click it reports goes to `clicked`; when
    /// the service's name changes hands and what it supports may have changed, `restarted` is
    /// called (after which ``capabilitiesSettled`` is false until the new owner answered).
    func start(clicked: @escaping @Sendable (ServiceClick) -> Void, restarted: @escaping @Sendable () -> Void) async
    /// Shows `notification` with the buttons of `category`, as `options` say; `replacing` when
    /// the engine lists a notification of its identifier. Returns the nonce the notification's
    /// action targets carry (``DeliveredEntry/nonce``), `nil` when they carry none.
    ///
    /// - Throws: ``NotificationDeliveryError`` or the service's own typed error.
    func post(
        _ notification: UNNotification, category: UNNotificationCategory?, options: UNNotificationPresentationOptions, replacing: Bool
    ) async throws -> String?
    /// Asks the service to withdraw `identifier`, without waiting: the call keeps its place
    /// before any later post. A failure is logged.
    func withdraw(_ identifier: String)
    /// Whether the service can be reached.
    func reachable() async -> Bool
    /// What the service shows, once it can be reached.
    func capabilities() async -> Set<NotificationCapability>
    /// Whether ``capabilities()`` will not change while the service runs (the portal's are
    /// version 1's until it has answered once): only then does the engine keep them, until
    /// the service says it restarted (``start(clicked:restarted:)``).
    var capabilitiesSettled: Bool { get }
    /// The click that `target`, the parameter of `org.freedesktop.Application.ActivateAction`
    /// on the app, stands for; taken only when `sender` owns the service's name (any session
    /// peer may call `ActivateAction`); `nil`, logged, otherwise.
    func click(target: String, activationToken: String?, sender: String) async -> ServiceClick?
    /// Stops hearing the service; the engine closes the connection after.
    func close()
    /// The app's center now serves `org.freedesktop.Application`.
    func applicationInterfaceServed()
}

extension NotificationService {
    /// Settled: the service's capabilities are constants.
    var capabilitiesSettled: Bool { true }

    /// Nothing to do: the service's actions reach the app the same way whether it serves the
    /// interface or not.
    func applicationInterfaceServed() {}
}
