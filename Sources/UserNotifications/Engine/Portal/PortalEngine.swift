import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine of a sandboxed app: notifications go through `org.freedesktop.portal.Notification`
/// (xdg-desktop-portal), the one notification interface Flatpak and Snap let an app reach.
///
/// The portal shows and withdraws by the app's own identifier, so a request's identifier is
/// its portal id and an update replaces in place. What the portal does not do, the engine
/// does itself (``SelfKeptEngine``): it keeps the pending requests and fires them with the same
/// ``PendingScheduler`` and ``PendingTable`` as the in-process engine, and keeps its own
/// delivered list (the portal cannot list what the server shows, and says nothing when a
/// notification is closed: there are no close reasons and no dismiss responses). A
/// notification leaves the list when it is withdrawn, replaced, or answered (servers
/// withdraw an activated notification). Nothing is kept across launches.
///
/// Every call takes effect on the caller's thread under one lock (``PortalEngineState``), so
/// the calls that return nothing are in order with every later call.
final class PortalEngine: SelfKeptEngine {
    /// How long a call to the portal may take.
    static let callDeadline: Duration = .seconds(10)

    let identity: ApplicationIdentity
    let connection: DBusConnection
    let clock: any NotificationClock
    private let hostReference: EngineHostReference
    let state = Locked(PortalEngineState())
    private let schedulerSlot = Locked<PendingScheduler<String>?>(nil)
    private let subscription = Locked<DBusSignalHandle?>(nil)

    var host: (any EngineHost)? { hostReference.host }
    var scheduler: PendingScheduler<String>? { schedulerSlot.withLock { $0 } }

    /// Makes the engine on `connection` (which it closes with ``close()``): it listens for
    /// `ActionInvoked` from the portal's owner and reads what the portal supports.
    static func start(
        identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference
    ) async -> PortalEngine {
        let engine = PortalEngine(identity: identity, connection: connection, clock: clock, host: host)
        await engine.listen()
        _ = await engine.features()
        return engine
    }

    private init(identity: ApplicationIdentity, connection: DBusConnection, clock: any NotificationClock, host: EngineHostReference) {
        self.identity = identity
        self.connection = connection
        self.clock = clock
        self.hostReference = host
        let scheduler = PendingScheduler<String>(clock: clock) { [weak self] identifier, due in
            self?.fire(identifier, due: due)
        }
        schedulerSlot.withLock { $0 = scheduler }
    }

    private func listen() async {
        let rule = DBusMatchRule(
            sender: PortalInterface.busName, interface: PortalInterface.interface, member: "ActionInvoked", path: PortalInterface.path)
        do {
            let handle = try await connection.subscribe(to: [rule], senderMustOwn: PortalInterface.busName) { [weak self] event in
                guard case .signal(let message) = event else { return }
                self?.actionInvoked(message)
            }
            subscription.withLock { $0 = handle }
        } catch {
            CenterLog.logger.error("the portal's actions cannot be heard", metadata: ["error": CenterLog.describe(error)])
        }
    }

    /// What the portal supports, read once it answers (`version`, then `SupportedOptions`
    /// from version 2); version 1 while it does not.
    func features() async -> PortalFeatures {
        if let known = state.withLock({ $0.features }) { return known }
        guard let version = await property("version") else { return .version1 }
        let options = (version.uint32Value ?? 1) >= 2 ? await property("SupportedOptions") : nil
        let features = PortalFeatures(version: version, supportedOptions: options)
        state.withLock { $0.features = features }
        return features
    }

    private func property(_ name: String) async -> DBusValue? {
        do {
            let message = try DBusMessage.methodCall(
                destination: PortalInterface.busName, path: PortalInterface.path, interface: PortalInterface.propertiesInterface,
                member: "Get", body: [.string(PortalInterface.interface), .string(name)])
            let reply = try await connection.call(message, timeout: Self.callDeadline)
            return try reply.arguments("v").first?.variantValue
        } catch {
            CenterLog.logger.info("the notification portal's property is not known", metadata: ["property": "\(name)", "error": CenterLog.describe(error)])
            return nil
        }
    }

    // MARK: - NotificationEngine

    // The lists, the categories, authorization requests and the badge are
    // ``SelfKeptEngine``'s.

    func authorization() async -> EngineAuthorization {
        await authorization {
            var capabilities: Set<NotificationCapability> = [.body, .actions, .iconStatic]
            if await self.features().hasVersion2Keys { capabilities.formUnion([.bodyMarkup, .sound]) }
            return capabilities
        }
    }

    /// The portal engine keeps no state file: nothing waits to be written.
    func writeStateNow() async throws {}

    /// The portal forwards a click only to the running app, and nothing keeps one for later:
    /// there is none to take.
    func takeKeptResponses(activatedFor id: String, activationToken: String?) async -> Bool {
        false
    }

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
