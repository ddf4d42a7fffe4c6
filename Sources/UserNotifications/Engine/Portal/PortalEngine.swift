import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine of a sandboxed app: notifications go through `org.freedesktop.portal.Notification`
/// (xdg-desktop-portal), the one notification interface Flatpak and Snap let an app reach.
///
/// The portal shows and withdraws by the app's own identifier, so a request's identifier is
/// its portal id and an update replaces in place; deliveries of one identifier go one at a
/// time (``PortalDeliveryLine``). What the portal does not do, the engine does itself
/// (``SelfKeptEngine``): it keeps the pending requests and fires them with the same
/// ``PendingScheduler`` and ``PendingTable`` as the in-process engine (a location trigger
/// through GeoClue2 with the same ``RegionWatch``), and keeps its own delivered list (the portal
/// cannot list what its server shows, and says nothing when a notification is closed: there
/// are no close reasons and no dismiss responses). A notification leaves the list when it is
/// withdrawn, replaced, or answered (servers withdraw an activated notification). Both lists,
/// the categories and the authorization are kept in the app's state file (``EngineState``,
/// under the portal's bus name), as the in-process engine keeps and saves them, when the
/// center keeps state (``SelfKeptStore``).
///
/// When the app id is a bus name with an owner or a D-Bus service (the app serves
/// `org.freedesktop.Application`, ``UNUserNotificationCenter/serveApplicationInterface()``),
/// the default action and the buttons are `app.notification-response` with a
/// ``PortalResponseID`` target, which carries a nonce kept with the notification: the portal
/// activates them through `ActivateAction` on the app id, which relaunches an app that exited,
/// and the app side hands the target and its caller to
/// ``takeActivatedResponse(_:activationToken:sender:)``. Otherwise, and for text-input
/// actions, they are plain names that come back as `ActionInvoked` to the running app.
///
/// Every call takes effect on the caller's thread under one lock (``PortalEngineState``), so
/// the calls that return nothing are in order with every later call.
final class PortalEngine: SelfKeptEngine {
    /// How long a call to the portal may take.
    static let callDeadline: Duration = .seconds(10)
    /// The most notifications the engine's own delivered list holds: the portal never says
    /// that one closed, so an app that never withdraws would grow it for ever; past this the
    /// oldest leaves the list (it stays on screen as the server decides).
    static let maximumDelivered = 1000

    let identity: ApplicationIdentity
    let connection: DBusConnection
    let clock: any NotificationClock
    private let hostReference: EngineHostReference
    let state = Locked(PortalEngineState())
    private let schedulerSlot = Locked<PendingScheduler<String>?>(nil)
    let regionWatch: RegionWatch
    private let subscription = Locked<DBusSignalHandle?>(nil)
    /// One delivery at a time per identifier.
    let line = PortalDeliveryLine()
    let keeper: SelfKeptStore
    /// The portal's bus name.
    static let savedServer = PortalInterface.busName

    var host: (any EngineHost)? { hostReference.host }
    var scheduler: PendingScheduler<String>? { schedulerSlot.withLock { $0 } }

    /// Makes the engine on `connection` (which it closes with ``close()``): it reads the saved
    /// state from `stateDirectory` (none kept when `nil`; a folder that cannot be named is
    /// logged and none is kept), listens for `ActionInvoked` from the portal's owner and reads
    /// what the portal supports. Location triggers are watched through `locationHub` (by
    /// default a hub of its own for the app's id, on the system bus, which a sandbox may not
    /// let the app reach: `add` then fails with ``LocationServiceError``).
    static func start(
        identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil, locationHub: LocationHub? = nil
    ) async -> PortalEngine {
        let engine = PortalEngine(
            identity: identity, connection: connection, clock: clock, host: host, keeper: SelfKeptStore(stateDirectory: stateDirectory),
            locationHub: locationHub ?? LocationHub(desktopID: identity.id))
        engine.restore()
        await engine.listen()
        _ = await engine.features()
        return engine
    }

    private init(
        identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference,
        keeper: SelfKeptStore, locationHub: LocationHub
    ) {
        self.identity = identity
        self.keeper = keeper
        self.connection = connection
        self.clock = clock
        self.hostReference = host
        self.regionWatch = RegionWatch(hub: locationHub)
        let scheduler = PendingScheduler<String>(clock: clock) { [weak self] identifier, due in
            self?.fire(identifier, due: due)
        }
        schedulerSlot.withLock { $0 = scheduler }
        regionWatch.subscribe { [weak self] event in self?.takeLocation(event) }
    }

    private func listen() async {
        let rule = DBusMatchRule(
            sender: PortalInterface.busName, interface: PortalInterface.interface, member: PortalNotificationSpec.Signal.actionInvoked.rawValue,
            path: PortalInterface.path)
        do {
            let handle = try await connection.subscribe(to: [rule], senderMustOwn: PortalInterface.busName) { [weak self] event in
                guard case .signal(let message) = event else { return }
                self?.actionInvoked(message)
            }
            subscription.withLock { $0 = handle }
        } catch {
            SubsystemLog.center.logger.error("the portal's actions cannot be heard", metadata: ["error": SubsystemLog.describe(error)])
        }
    }

    /// What the portal supports, read once it answers (`version`, then `SupportedOptions`
    /// from version 2); version 1 while it does not.
    func features() async -> PortalFeatures {
        if let known = state.withLock({ $0.features }) { return known }
        guard let version = await property(.version) else { return .version1 }
        let options = (version.uint32Value ?? 1) >= 2 ? await property(.supportedOptions) : nil
        let features = PortalFeatures(version: version, supportedOptions: options)
        state.withLock { $0.features = features }
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

    // MARK: - NotificationEngine

    // The lists, the categories, authorization requests and the badge are
    // ``SelfKeptEngine``'s, and so are the saves of each change of them (``stateChanged()``).

    func authorization() async -> EngineAuthorization {
        await authorization {
            var capabilities: Set<NotificationCapability> = [.body, .actions, .iconStatic]
            if await self.features().hasVersion2Keys { capabilities.formUnion([.bodyMarkup, .sound]) }
            return capabilities
        }
    }

    /// The click an `app.notification-response` action of this engine carried, which the app
    /// side received through `ActivateAction` from the unique name `sender`: `target` is its
    /// ``PortalResponseID``. It is taken only from the current owner of the portal's bus name
    /// (xdg-desktop-portal calls from the connection that owns it; any session peer may call
    /// `ActivateAction`), and only when the target carries the nonce of the notification it
    /// names. The response goes to the delegate and the notification leaves the list; `false`,
    /// logged, for another sender, a target this engine did not make, a wrong nonce, or a
    /// notification it does not list (withdrawn, or answered already).
    func takeActivatedResponse(_ text: String, activationToken: String?, sender: String) async -> Bool {
        guard await ActivationSender.owns(PortalInterface.busName, sender: sender, on: connection) else { return false }
        guard let target = PortalResponseID(parsing: text) else {
            SubsystemLog.center.logger.info("an activated notification response of another form was refused", metadata: ["id": "\(TerminalText.singleLine(text))"])
            return false
        }
        return answer(
            id: target.identifier, action: target.action, parameter: PortalActionParameter(activationToken: activationToken), nonce: target.nonce)
    }

    /// The notifications go through the portal.
    func kind() async -> NotificationEngineKind { .portal }

    func close() {
        subscription.withLock { $0?.cancel() }
        closeLists()
    }

    /// Whether the portal's name has an owner or the bus can start it.
    func reachable() async -> Bool {
        if (try? await connection.nameOwner(of: PortalInterface.busName)) != nil { return true }
        return (try? await connection.listActivatableNames())?.contains(PortalInterface.busName) == true
    }
}
