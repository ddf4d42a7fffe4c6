import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications

/// A ``NotificationService`` (the portal, GNOME's `org.gtk.Notifications`) as the engine's
/// transport: the service shows and withdraws by the request's identifier and has no ids, so
/// the transport gives each notification an id of its own, under the service's bus name as
/// the server; a post's outcome and the service's clicks come back on the channel.
///
/// The services say nothing when a notification closes, so the engine lists at most
/// ``maximumDelivered`` of them (past that the oldest leaves the list; it stays on screen as
/// the server decides), and a click takes the notification off the list (the services
/// withdraw a notification when it is activated).
final class ServiceTransport: NotificationTransport {
    /// The most notifications the engine lists for a service: no service says that one
    /// closed, so an app that never withdraws would grow the list for ever.
    static let maximumDelivered = 1000

    let service: any NotificationService
    private struct State {
        var receive: (@Sendable (TransportItem) -> Void)?
        var lastID: UInt32 = 0
    }
    private let state = Locked(State())

    init(service: any NotificationService) {
        self.service = service
    }

    var kind: NotificationEngineKind { service.kind }
    /// The service's bus name: the `server` under which the engine saves what it lists. No
    /// notification server's unique name can equal it, so the engine of the freedesktop
    /// service, reading the same state file, restores none of them, and each service's engine
    /// only its own.
    var serverOwner: String? { service.busName }
    var withdrawsUnlisted: Bool { service.withdrawsUnlisted }
    var deliveredBound: Int? { Self.maximumDelivered }

    /// Starts hearing the service's own clicks, and of its restarts.
    func open(_ receive: @escaping @Sendable (TransportItem) -> Void) async {
        state.withLock { $0.receive = receive }
        let server = service.busName
        await service.start(
            clicked: { click in receive(TransportItem(owner: server, kind: .click(click))) },
            restarted: { receive(TransportItem(owner: server, kind: .serviceRestarted)) })
    }

    /// Stops hearing the service and closes its connection.
    func shut() {
        state.withLock { $0.receive = nil }
        service.close()
        let connection = service.connection
        Task { await connection.close() }
    }

    /// Nothing to reach ahead: the service's name is its server.
    func connect() async throws(NotificationsError) {}

    /// Posts through the service, in a task of its own: the outcome comes to the channel once
    /// the service took the notification (or refused it, with the service's own error). The
    /// sound is the app's to play when the service has no `sound` capability (GNOME; the portal
    /// before version 2).
    func post(_ post: TransportPost, tag: UInt64, keepSound: (EventSound) -> Void) {
        if !post.capabilities.contains(.sound),
           let sound = EventSound(content: post.notification.request.content, options: post.options) {
            keepSound(sound)
        }
        let id = post.replacesID != 0 ? post.replacesID : nextID()
        let service = self.service
        Task {
            let outcome: Result<(posting: NotificationPosting, nonce: String?), any Error>
            do {
                let nonce = try await service.post(
                    post.notification, category: post.category, options: post.options, replacing: post.replacesID != 0)
                outcome = .success((NotificationPosting(id: id, server: service.busName), nonce))
            } catch {
                outcome = .failure(error)
            }
            self.state.withLock { $0.receive }?(TransportItem(owner: service.busName, kind: .posted(tag: tag, outcome)))
        }
    }

    /// A new id: never 0, never one given before in this process.
    private func nextID() -> UInt32 {
        state.withLock { state in
            state.lastID = state.lastID == .max ? 1 : state.lastID + 1
            return state.lastID
        }
    }

    /// Asks the service to withdraw each by its identifier, on this thread, in order.
    func withdraw(_ notifications: [TransportWithdrawal]) {
        for notification in notifications { service.withdraw(notification.identifier) }
    }

    /// The service's capabilities, once it can be reached (``NotificationsError/noServer(_:)``
    /// otherwise), answered by the service's name while they are settled
    /// (``NotificationService/capabilitiesSettled``) and by none, so that the engine does not
    /// keep them, while they are not.
    func capabilityAnswer() async throws(NotificationsError) -> (capabilities: [NotificationCapability], server: String?) {
        guard await service.reachable() else { throw .noServer("\(service.busName) cannot be reached") }
        let capabilities = await service.capabilities()
        return (Array(capabilities), service.capabilitiesSettled ? service.busName : nil)
    }

    func isServerAvailable() async throws(NotificationsError) -> Bool {
        await service.reachable()
    }

    /// Sends the launcher's badge (`com.canonical.Unity.LauncherEntry`) on the service's
    /// connection; a sandbox lets an app emit it on the session bus.
    func setBadge(appID: String, count: Int) async throws(NotificationsError) {
        let signal = try LauncherEntry.update(appID: appID, count: count)
        do {
            try service.connection.send(signal)
        } catch {
            throw NotificationsError.noServer(String(describing: error))
        }
    }

    /// A new id: the saved one was this transport's in an earlier process, and ids are given
    /// afresh in each.
    func restoredID(_ id: UInt32) -> UInt32 { nextID() }

    func click(target: String, activationToken: String?, sender: String) async -> ServiceClick? {
        await service.click(target: target, activationToken: activationToken, sender: sender)
    }

    func applicationInterfaceServed() {
        service.applicationInterfaceServed()
    }
}
