import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The service of a sandboxed app: notifications go through `org.freedesktop.portal.Notification`
/// (xdg-desktop-portal), the one notification interface Flatpak and Snap let an app reach. The
/// engine core works in front of it (``ServiceTransport``).
///
/// The portal shows and withdraws by the app's own identifier, so a request's identifier is
/// its portal id and an update replaces in place. It has no scheduler, cannot list what its
/// server shows, and says nothing when a notification is closed: the engine keeps the lists,
/// in the app's state file under the portal's bus name.
///
/// When the app id is a bus name with an owner or a D-Bus service (the app serves
/// `org.freedesktop.Application`, ``UNUserNotificationCenter/serveApplicationInterface()``),
/// the default action and the buttons are `app.notification-response` with a
/// ``PortalResponseID`` target, which carries a nonce kept with the notification: the portal
/// activates them through `ActivateAction` on the app id, which relaunches an app that exited,
/// and the app side hands the target and its caller to
/// ``click(target:activationToken:sender:)``. Otherwise, and for text-input actions, they are
/// plain names that come back as `ActionInvoked` to the running app.
final class PortalService: NotificationService {
    /// How long a call to the portal may take.
    static let callDeadline: Duration = .seconds(10)
    /// How long the bus's word that the app id has no owner is believed. The app's own center
    /// says at once when it starts serving (``applicationInterfaceServed()``); the bus is asked
    /// again for another process of the app that may have started serving since.
    static let ownerRecheckInterval: Duration = .seconds(2)

    let identity: ApplicationIdentity
    let connection: DBusConnection
    /// What the portal was last seen to support, and whether the app serves
    /// `org.freedesktop.Application`.
    let seen = Locked(Seen())
    private let subscription = Locked<DBusSignalHandle?>(nil)

    /// What the service learnt of the portal and the app, under one lock.
    struct Seen: Sendable {
        /// `nil` until the portal answered its properties.
        var features: PortalFeatures?
        /// Whether the app id was seen as a bus name with an owner or an activatable service, so
        /// actions go to `org.freedesktop.Application` (kept once seen: a center serves until it
        /// goes away).
        var servesApplicationInterface = false
        /// Whether the bus can start the app id (a D-Bus service file names it); `nil` until asked.
        var applicationActivatable: Bool?
        /// When the bus last said the app id has no owner: believed for
        /// ``PortalService/ownerRecheckInterval``, so a run of posts asks once.
        var ownerAbsentAt: ContinuousClock.Instant?
    }

    var kind: NotificationEngineKind { .portal }
    var busName: String { PortalInterface.busName }
    /// The portal is told only of what the engine lists.
    var withdrawsUnlisted: Bool { false }

    /// The service of the app `identity` on `connection`.
    init(identity: ApplicationIdentity, connection: DBusConnection) {
        self.identity = identity
        self.connection = connection
    }

    /// Listens for `ActionInvoked` from the portal's owner and reads what the portal supports.
    /// When the portal's name changes hands (xdg-desktop-portal restarted, perhaps upgraded),
    /// what it supports is forgotten, to be read again from the new owner, and `restarted`
    /// is called.
    func start(clicked: @escaping @Sendable (ServiceClick) -> Void, restarted: @escaping @Sendable () -> Void) async {
        let rule = DBusMatchRule(
            sender: PortalInterface.busName, interface: PortalInterface.interface, member: PortalNotificationSpec.Signal.actionInvoked.rawValue,
            path: PortalInterface.path)
        do {
            let handle = try await connection.subscribe(to: [rule], senderMustOwn: PortalInterface.busName) { [seen] event in
                switch event {
                case .signal(let message):
                    if let click = Self.click(actionInvoked: message) { clicked(click) }
                case .ownerChanged:
                    seen.withLock { $0.features = nil }
                    restarted()
                case .disconnected:
                    break
                }
            }
            subscription.withLock { $0 = handle }
        } catch {
            SubsystemLog.center.logger.error("the portal's actions cannot be heard", metadata: ["error": SubsystemLog.describe(error)])
        }
        _ = await features()
    }

    func close() {
        subscription.withLock { $0?.cancel() }
    }

    /// The app's center serves `org.freedesktop.Application`: from the next post on, the
    /// actions go to it, with no question to the bus.
    func applicationInterfaceServed() {
        seen.withLock { $0.servesApplicationInterface = true }
    }

    /// What the portal supports, read once it answers (`version`, then `SupportedOptions`
    /// from version 2); version 1 while it does not.
    func features() async -> PortalFeatures {
        if let known = seen.withLock({ $0.features }) { return known }
        guard let version = await property(.version) else { return .version1 }
        let options = (version.uint32Value ?? 1) >= 2 ? await property(.supportedOptions) : nil
        let features = PortalFeatures(version: version, supportedOptions: options)
        seen.withLock { $0.features = features }
        return features
    }

    private func property(_ property: PortalNotificationSpec.Property) async -> DBusValue? {
        let name = property.rawValue
        do {
            let message = try PropertiesSpec.Call.get(.init(interfaceName: PortalInterface.interface, propertyName: name))
                .message(to: PortalInterface.busName, path: PortalInterface.path)
            return try PropertiesSpec.GetReply(try await connection.call(message, timeout: Self.callDeadline).body).value
        } catch {
            SubsystemLog.center.logger.info("the notification portal's property is not known", metadata: ["property": "\(name)", "error": SubsystemLog.describe(error)])
            return nil
        }
    }

    /// A plain body, buttons and a static icon; markup and sound from version 2.
    func capabilities() async -> Set<NotificationCapability> {
        var capabilities: Set<NotificationCapability> = [.body, .actions, .iconStatic]
        if await features().hasVersion2Keys { capabilities.formUnion([.bodyMarkup, .sound]) }
        return capabilities
    }

    /// Settled once the portal has answered with its version (``features()``).
    var capabilitiesSettled: Bool { seen.withLock { $0.features != nil } }

    /// Whether the portal's name has an owner or the bus can start it.
    func reachable() async -> Bool {
        if (try? await connection.nameOwner(of: PortalInterface.busName)) != nil { return true }
        return (try? await connection.listActivatableNames())?.contains(PortalInterface.busName) == true
    }

    /// The click an `app.notification-response` action of this service carried, which the app
    /// side received through `ActivateAction` from the unique name `sender`: `text` is its
    /// ``PortalResponseID``. It is taken only from the current owner of the portal's bus name
    /// (xdg-desktop-portal calls from the connection that owns it; any session peer may call
    /// `ActivateAction`), and carries the target's nonce, which the engine checks against the
    /// notification's. `nil`, logged, for another sender or a target this service did not make.
    func click(target text: String, activationToken: String?, sender: String) async -> ServiceClick? {
        guard await ActivationSender.owns(PortalInterface.busName, sender: sender, on: connection) else { return nil }
        guard let target = PortalResponseID(parsing: text) else {
            SubsystemLog.center.logger.info("an activated notification response of another form was refused", metadata: ["id": "\(TerminalText.singleLine(text))"])
            return nil
        }
        return Self.click(id: target.identifier, action: target.action, parameter: PortalActionParameter(activationToken: activationToken), nonce: target.nonce)
    }
}
