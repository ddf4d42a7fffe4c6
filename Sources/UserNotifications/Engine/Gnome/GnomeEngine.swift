import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine of an app with a desktop entry on GNOME: notifications go to GNOME Shell's own
/// interface, `org.gtk.Notifications`, as GLib's `GNotification` sends them, so that they stay
/// in the message tray after the app exits and a click relaunches the app.
///
/// A request's identifier is its GNOME notification id: adding it again replaces the
/// notification in place, and withdrawing it is `RemoveNotification` (by identifier, also one
/// an earlier launch posted). The click and every
/// button are the action `app.notification-response`, whose target is the response itself
/// (``GnomeActionTarget``): GNOME Shell calls `org.freedesktop.Application.ActivateAction`
/// with it on the app id's bus name, D-Bus starts the app when it has exited, and the app
/// side (``UNUserNotificationCenter/serveApplicationInterface()``) hands the response to the
/// engine (``takeActivatedResponse(_:activationToken:sender:)``, from GNOME Shell only), which
/// gives it to the delegate. The app must therefore serve that interface, and GNOME needs its desktop entry
/// (else `AddNotification` fails with ``GtkNotificationsError/applicationNotFound(appID:)``).
///
/// What GNOME does not do, the engine does itself (``SelfKeptEngine``), as the portal engine
/// does: pending requests fire only while the app runs (``PendingScheduler``; a location
/// trigger through GeoClue2, ``RegionWatch``, as in the in-process engine), and the delivered
/// list is the engine's own record (GNOME cannot list what it shows, nor says when one is
/// closed). Both
/// lists, the categories and the authorization are kept in the app's state file
/// (``EngineState``, under `org.gtk.Notifications`, apart from the portal engine's entries),
/// as the in-process engine keeps and saves them, when the center keeps state
/// (``SelfKeptStore``): a relaunched app still has its pending requests, and lists and can
/// withdraw what an earlier launch showed. A notification leaves the list when it is
/// withdrawn or answered.
final class GnomeEngine: SelfKeptEngine {
    /// How long a call to GNOME Shell may take.
    static let callDeadline: Duration = .seconds(10)

    let identity: ApplicationIdentity
    let connection: DBusConnection
    let clock: any NotificationClock
    private let hostReference: EngineHostReference
    let state = Locked(GnomeEngineState())
    private let schedulerSlot = Locked<PendingScheduler<String>?>(nil)
    let regionWatch: RegionWatch
    let keeper: SelfKeptStore
    /// GNOME Shell's bus name.
    static let savedServer = GnomeInterface.busName

    var host: (any EngineHost)? { hostReference.host }
    var scheduler: PendingScheduler<String>? { schedulerSlot.withLock { $0 } }

    /// Makes the engine on `connection`, which it closes with ``close()``, and reads the saved
    /// state from `stateDirectory` (none kept when `nil`; a folder that cannot be named is
    /// logged and none is kept). Location triggers are watched through `locationHub` (by
    /// default a hub of its own for the app's id, on the system bus).
    init(
        identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil, locationHub: LocationHub? = nil
    ) {
        self.identity = identity
        self.keeper = SelfKeptStore(stateDirectory: stateDirectory)
        self.connection = connection
        self.clock = clock
        self.hostReference = host
        self.regionWatch = RegionWatch(hub: locationHub ?? LocationHub(desktopID: identity.id))
        let scheduler = PendingScheduler<String>(clock: clock) { [weak self] identifier, due in
            self?.fire(identifier, due: due)
        }
        schedulerSlot.withLock { $0 = scheduler }
        regionWatch.subscribe { [weak self] event in self?.takeLocation(event) }
        restore()
    }

    // MARK: - NotificationEngine

    // The lists, the categories, authorization requests and the badge are
    // ``SelfKeptEngine``'s, and so are the saves of each change of them (``stateChanged()``).

    /// Withdraws the notifications named, whether this launch posted them or an earlier one
    /// did (GNOME keeps them across the app's exit and ignores an id it does not show); `nil`
    /// withdraws those the engine lists (this launch's, and an earlier one's when the center
    /// keeps state).
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            guard let identifiers else { return Array(state.delivered.keys) }
            for identifier in identifiers { state.delivered.removeValue(forKey: identifier) }
            return Array(Set(identifiers))
        }
        for identifier in removed { withdraw(identifier) }
        if !removed.isEmpty { stateChanged() }
    }

    /// GNOME Shell 43 shows a plain body, a themed icon and buttons through this interface,
    /// and keeps the notifications across the app's exit (`persistence`).
    func authorization() async -> EngineAuthorization {
        await authorization { [.body, .actions, .iconStatic, .persistence] }
    }

    /// Takes the response a click in GNOME Shell stands for: `target` is the target of the
    /// `app.notification-response` action (``GnomeActionTarget``), which the app side received
    /// with `ActivateAction` from the unique name `sender`. Only the owner of
    /// `org.gtk.Notifications` (GNOME Shell, which calls from the connection that owns it) is
    /// believed: any session peer may call `ActivateAction`. The engine's own record of the
    /// notification is used when this launch posted it (the whole content), else the archive
    /// in the target (an app GNOME relaunched); either way the notification leaves the
    /// delivered list and the response goes to the category's content extension first, when
    /// there is one, else to the delegate (``route(_:)``). `false` for another sender or a
    /// target that does not read as a response (logged).
    func takeActivatedResponse(_ target: String, activationToken: String?, sender: String) async -> Bool {
        guard let decoded = await Self.response(target: target, activationToken: activationToken, sender: sender, on: connection) else {
            return false
        }
        let identifier = decoded.notification.request.identifier
        let known = state.withLock { $0.delivered.removeValue(forKey: identifier)?.notification }
        if known != nil { stateChanged() }
        guard let known else {
            route(decoded)
            return true
        }
        if let text = decoded as? UNTextInputNotificationResponse {
            route(UNTextInputNotificationResponse(
                notification: known, actionIdentifier: text.actionIdentifier, userText: text.userText, activationToken: text.activationToken))
        } else {
            route(UNNotificationResponse(notification: known, actionIdentifier: decoded.actionIdentifier, activationToken: decoded.activationToken))
        }
        return true
    }

    /// The notifications go through GNOME's own interface.
    func kind() async -> NotificationEngineKind { .gnome }

    func close() {
        closeLists()
    }

    /// The response a GNOME target carries, when `sender` owns `org.gtk.Notifications` (any
    /// session peer may call `ActivateAction`, and the target is the response itself) and the
    /// target reads; `nil`, logged, otherwise.
    static func response(target: String, activationToken: String?, sender: String, on connection: DBusConnection) async -> UNNotificationResponse? {
        guard await ActivationSender.owns(GnomeInterface.busName, sender: sender, on: connection) else { return nil }
        do {
            return try GnomeActionTarget.decode(target, activationToken: activationToken)
        } catch {
            SubsystemLog.center.logger.warning("a notification response that does not read as GNOME's was refused", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Whether `org.gtk.Notifications` has an owner (GNOME Shell owns it; it is never
    /// D-Bus activated).
    func reachable() async -> Bool {
        (try? await connection.nameOwner(of: GnomeInterface.busName)) != nil
    }
}
