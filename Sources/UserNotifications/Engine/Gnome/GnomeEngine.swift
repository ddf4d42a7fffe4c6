import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine of an app with a desktop entry on GNOME: notifications go to GNOME Shell's own
/// interface, `org.gtk.Notifications`, as GLib's `GNotification` sends them, so that they stay
/// in the message tray after the app exits and a click relaunches the app.
///
/// A request's identifier is its GNOME notification id: adding it again replaces the
/// notification in place, and withdrawing it is `RemoveNotification`. The click and every
/// button are the action `app.notification-response`, whose target is the response itself
/// (``GnomeActionTarget``): GNOME Shell calls `org.freedesktop.Application.ActivateAction`
/// with it on the app id's bus name, D-Bus starts the app when it has exited, and the app
/// side (``UNUserNotificationCenter/serveApplicationInterface()``) hands the response to the
/// engine (``takeResponse(target:activationToken:sender:)``, from GNOME Shell only), which
/// gives it to the delegate. The app must therefore serve that interface, and GNOME needs its desktop entry
/// (else `AddNotification` fails with ``GtkNotificationsError/applicationNotFound(appID:)``).
///
/// What GNOME does not do, the engine does itself, as the portal engine does: pending
/// requests fire only while the app runs (``PendingScheduler``), the delivered list is the
/// engine's own record of this launch (GNOME cannot list what it shows, nor says when one is
/// closed), and nothing is saved across launches. A notification leaves the list when it is
/// withdrawn or answered.
final class GnomeEngine: NotificationEngine {
    /// How long a call to GNOME Shell may take.
    static let callDeadline: Duration = .seconds(10)

    let identity: ApplicationIdentity
    let connection: DBusConnection
    let clock: any NotificationClock
    private let hostReference: EngineHostReference
    let state = Locked(GnomeEngineState())
    private let schedulerSlot = Locked<PendingScheduler<String>?>(nil)

    var host: (any EngineHost)? { hostReference.host }
    var scheduler: PendingScheduler<String>? { schedulerSlot.withLock { $0 } }

    /// Makes the engine on `connection`, which it closes with ``close()``.
    init(identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference) {
        self.identity = identity
        self.connection = connection
        self.clock = clock
        self.hostReference = host
        let scheduler = PendingScheduler<String>(clock: clock) { [weak self] identifier, due in
            self?.fire(identifier, due: due)
        }
        schedulerSlot.withLock { $0 = scheduler }
    }

    // MARK: - NotificationEngine

    func add(_ request: UNNotificationRequest) async throws {
        try InProcessEngine.validate(request)
        if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
            let entry = try PendingEntry(scheduling: request, trigger: trigger, at: clock.now)
            state.withLock { _ = $0.pending.insert(entry) }
            scheduler?.schedule(request.identifier, at: entry.nextFire)
            return
        }
        removePendingRequests(withIdentifiers: [request.identifier])
        try await deliver(request, date: clock.now)
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        state.withLock { $0.pending.requests }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            identifiers.map { $0.compactMap { state.pending.remove($0)?.identifier } } ?? state.pending.removeAll().map(\.identifier)
        }
        for identifier in removed { scheduler?.cancel(identifier) }
    }

    func deliveredNotifications() async -> [UNNotification] {
        state.withLock { $0.delivered.values.sorted { $0.date < $1.date } }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            let chosen = identifiers ?? Array(state.delivered.keys)
            return chosen.filter { state.delivered.removeValue(forKey: $0) != nil }
        }
        for identifier in removed { withdraw(identifier) }
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) {
        state.withLock { $0.categories = Dictionary(categories.map { ($0.identifier, $0) }) { first, _ in first } }
    }

    func categories() async -> Set<UNNotificationCategory> {
        state.withLock { Set($0.categories.values) }
    }

    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        let granted = await reachable()
        state.withLock { state in
            state.authorizationStatus = granted ? .authorized : .denied
            state.authorizationOptions = options
        }
        return granted
    }

    /// GNOME Shell 43 shows a plain body, a themed icon and buttons through this interface,
    /// and keeps the notifications across the app's exit (`persistence`).
    func authorization() async -> EngineAuthorization {
        let (status, options) = state.withLock { ($0.authorizationStatus, $0.authorizationOptions) }
        guard await reachable() else { return EngineAuthorization(status: status, options: options, capabilities: nil) }
        return EngineAuthorization(status: status, options: options, capabilities: [.body, .actions, .iconStatic, .persistence])
    }

    /// Sends the launcher's badge (`com.canonical.Unity.LauncherEntry`), as the other engines do.
    func setBadgeCount(_ count: Int) async throws {
        let signal: DBusMessage
        do {
            signal = try LauncherEntry.update(appID: identity.id, count: count)
        } catch {
            throw NotificationDeliveryError(error)
        }
        do {
            try connection.send(signal)
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
    }

    /// The GNOME engine keeps no state file (GNOME keeps the notifications): nothing waits.
    func writeStateNow() async throws {}

    /// GNOME keeps no responses for the engine to take: a click comes as
    /// ``takeResponse(target:activationToken:sender:)``, with its sender.
    func takeKeptResponses(activatedFor id: String, activationToken: String?) async -> Bool {
        false
    }

    /// Takes the response a click in GNOME Shell stands for: `target` is the target of the
    /// `app.notification-response` action (``GnomeActionTarget``), which the app side received
    /// with `ActivateAction` from the unique name `sender`. Only the owner of
    /// `org.gtk.Notifications` (GNOME Shell, which calls from the connection that owns it) is
    /// believed: any session peer may call `ActivateAction`. The engine's own record of the
    /// notification is used when this launch posted it (the whole content), else the archive
    /// in the target (an app GNOME relaunched); either way the notification leaves the
    /// delivered list and the delegate gets the response. `false` for another sender or a
    /// target that does not read as a response (logged).
    func takeResponse(target: String, activationToken: String?, sender: String) async -> Bool {
        let owner = try? await connection.nameOwner(of: GnomeInterface.busName)
        guard let owner, owner == sender else {
            CenterLog.logger.warning(
                "a notification response not sent by the owner of org.gtk.Notifications was refused",
                metadata: ["sender": "\(sender)", "owner": "\(owner ?? "none")"])
            return false
        }
        let decoded: UNNotificationResponse
        do {
            decoded = try GnomeActionTarget.decode(target, activationToken: activationToken)
        } catch {
            CenterLog.logger.warning("a notification response that does not read as GNOME's was refused", metadata: ["error": "\(error)"])
            return false
        }
        let identifier = decoded.notification.request.identifier
        let known = state.withLock { $0.delivered.removeValue(forKey: identifier) }
        guard let known else {
            host?.receive(decoded)
            return true
        }
        if let text = decoded as? UNTextInputNotificationResponse {
            host?.receive(UNTextInputNotificationResponse(
                notification: known, actionIdentifier: text.actionIdentifier, userText: text.userText, activationToken: text.activationToken))
        } else {
            host?.receive(UNNotificationResponse(notification: known, actionIdentifier: decoded.actionIdentifier, activationToken: decoded.activationToken))
        }
        return true
    }

    func close() {
        state.withLock { $0.closed = true }
        scheduler?.cancelAll()
        let connection = self.connection
        Task { await connection.close() }
    }

    /// Whether `org.gtk.Notifications` has an owner (GNOME Shell owns it; it is never
    /// D-Bus activated).
    func reachable() async -> Bool {
        (try? await connection.nameOwner(of: GnomeInterface.busName)) != nil
    }
}
