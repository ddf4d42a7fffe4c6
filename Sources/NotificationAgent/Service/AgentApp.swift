import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation
import UserNotifications

/// One app in the agent: its engine (the in-process engine's code, with the app's identity
/// and state folder), its host, the connection bound to it, and the queue that takes its calls
/// one at a time in the order they came.
final class AgentApp: Sendable {
    let appID: String
    let host: AgentAppHost
    let engine: HostedEngine
    let work = SerialWork()
    /// The caps ``add(_:)`` keeps.
    let caps: AgentLimits.AddCaps
    private let binding = Locked<(pid: UInt32?, watch: DBusSignalHandle?)>((nil, nil))

    init(
        appID: String, identity: ApplicationIdentity, host: AgentAppHost, bus: NotificationBus, clock: any NotificationClock, folder: URL,
        caps: AgentLimits.AddCaps, saves: SaveLoad
    ) {
        self.appID = appID
        self.caps = caps
        self.host = host
        engine = HostedEngine(
            identity: identity, bus: bus, clock: clock, host: host, stateDirectory: folder, locationHub: AgentLocation.hub,
            undelivered: { identifier, error in
                AgentLog.logger.warning(
                    "an accepted notification was not delivered; it is kept and delivered again when a notification server appears",
                    metadata: ["app": "\(appID)", "identifier": "\(TerminalText.singleLine(identifier))", "error": AgentLog.describe(error)])
            }, taskExecutor: DBusLoopExecutor.shared, saves: saves)
    }

    /// Binds `sender` to the app once `identifying` allows it, and follows it so that the app
    /// counts as not running when it leaves the bus.
    func bind(sender: String, on connection: DBusConnection, identifying: any CallerIdentifying) async throws {
        let senderPID = await Self.processID(of: sender, on: connection)
        let bound = host.center
        try await identifying.authorize(
            sender: sender, senderPID: senderPID, appID: appID, boundSender: bound, boundPID: binding.withLock { $0.pid },
            on: connection)
        let watch = try await connection.subscribe(to: [], senderMustOwn: sender) { [weak self] event in
            if case .ownerChanged(_, _, nil) = event { self?.unbind(sender) }
        }
        let previous = binding.withLock { binding in
            defer { binding = (senderPID, watch) }
            return binding.watch
        }
        previous?.cancel()
        host.center = sender
        if watch.initialOwner == nil { unbind(sender) }
    }

    /// Forgets `sender` if it is still the bound connection.
    private func unbind(_ sender: String) {
        guard host.center == sender else { return }
        host.center = nil
        host.touch()
        binding.withLock { $0.watch?.cancel(); $0 = (nil, nil) }
    }

    /// Throws unless `sender` is the connection bound to the app.
    func requireBound(_ sender: String) throws(NotificationAgentError) {
        guard let center = host.center else { throw .unknownApp("\(appID): call Connect first") }
        guard center == sender else { throw .notAllowed("\(appID) is connected from another connection") }
    }

    /// Adds a request within the app's caps, checked against the engine's counts (never its
    /// lists, so the check costs the same at any size): a request that replaces one of the same
    /// identifier is always taken. With `presentation` (`AddPresented`), an immediate request
    /// is shown with those options and the app is not asked `WillPresent`; a request with a
    /// trigger is refused then. `accepted` is called at acceptance, before the request is
    /// posted (``UserNotifications/HostedEngine/add(_:accepted:)``).
    func add(
        _ request: UNNotificationRequest, presentation: UNNotificationPresentationOptions? = nil,
        accepted: (@Sendable () -> Void)? = nil
    ) async throws {
        if presentation != nil, !AgentPayload.deliversAtOnce(request) {
            throw NotificationAgentError.invalidArgument("AddPresented takes a request that is shown at once, not one with a trigger")
        }
        let occupancy = await engine.occupancy(of: request.identifier)
        if request.trigger != nil {
            if occupancy.pending >= caps.pendingRequests, !occupancy.isPending {
                throw NotificationAgentError.limitReached("\(appID) has \(caps.pendingRequests) pending requests")
            }
        } else if occupancy.delivered >= caps.liveNotifications, !occupancy.isDelivered {
            throw NotificationAgentError.limitReached("\(appID) shows \(caps.liveNotifications) notifications")
        }
        if let presentation {
            try await engine.add(request, presentation: presentation, accepted: accepted)
        } else {
            try await engine.add(request, accepted: accepted)
        }
    }

    /// The app's counts for `Status`.
    func status() async -> AgentStatus.App {
        let occupancy = await engine.occupancy(of: "")
        return AgentStatus.App(
            appID: appID, pending: occupancy.pending, delivered: occupancy.delivered, queued: host.queuedCount,
            connected: host.center != nil)
    }

    /// The process id of a connection, or `nil` when the bus does not say.
    private static func processID(of sender: String, on connection: DBusConnection) async -> UInt32? {
        try? await connection.callBus("GetConnectionUnixProcessID", [.string(sender)]).arguments("u").first?.uint32Value
    }
}
