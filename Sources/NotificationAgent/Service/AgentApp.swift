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
    let engine: EngineCore
    let work = SerialWork()
    /// The caps ``add(_:)`` keeps.
    let caps: AgentLimits.AddCaps
    /// The app's state folder.
    let folder: URL
    private let binding = Locked<(pid: UInt32?, watch: DBusSignalHandle?, confinement: CallerConfinement?)>((nil, nil, nil))
    /// Called when the bound connection leaves the bus (the agent may let the app go then).
    private let left: @Sendable (AgentApp) -> Void
    /// The bytes of requests and categories the app holds, as they traveled (``AgentAppBytes``).
    let bytes: Locked<AgentAppBytes>
    /// The bytes of the categories the app set last, as their records traveled: counted in
    /// ``bytes`` until the app sets others.
    private let categoryBytes = Locked(0)
    /// Set once the agent has let the app go: a call that finds it so starts again with a new app.
    let isReleased = Locked(false)

    init(
        appID: String, identity: ApplicationIdentity, host: AgentAppHost, notifications: NotificationsClient, clock: any NotificationClock, folder: URL,
        caps: AgentLimits.AddCaps, saves: SaveLoad, left: @escaping @Sendable (AgentApp) -> Void = { _ in }
    ) {
        self.appID = appID
        self.caps = caps
        self.host = host
        self.folder = folder
        self.left = left
        bytes = Locked(AgentAppBytes(estimate: AgentAppBytes.sizeOnDisk(of: folder)))
        engine = EngineCore.agentApp(
            identity: identity, client: notifications, clock: clock, host: host, stateDirectory: folder, locationHub: AgentLocation.hub,
            undelivered: { identifier, error in
                SubsystemLog.agent.logger.warning(
                    "an accepted notification was not delivered; it is kept and delivered again when a notification server appears",
                    metadata: ["app": "\(appID)", "identifier": "\(TerminalText.singleLine(identifier))", "error": SubsystemLog.describe(error)])
            }, taskExecutor: DBusLoopExecutor.shared, saves: saves)
    }

    /// Binds `sender` to the app once `identifying` allows it and `identity` is within what the
    /// caller's confinement may name (``AgentLimits/iconBytes``: a sandboxed app's icon is a
    /// theme name), and follows it so that the app counts as not running when it leaves the bus.
    func bind(sender: String, identity: ApplicationIdentity, on connection: DBusConnection, identifying: any CallerIdentifying) async throws {
        let senderPID = await Self.processID(of: sender, on: connection)
        let bound = host.center
        let confinement = try await identifying.authorize(
            sender: sender, senderPID: senderPID, appID: appID, boundSender: bound, boundPID: binding.withLock { $0.pid },
            on: connection)
        try AgentConnectOptions.check(icon: identity.icon, confinement: confinement)
        let watch = try await connection.subscribe(to: [], senderMustOwn: sender) { [weak self] event in
            if case .ownerChanged(_, _, nil) = event { self?.unbind(sender) }
        }
        let previous = binding.withLock { binding in
            defer { binding = (senderPID, watch, confinement) }
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
        binding.withLock { $0.watch?.cancel(); $0 = (nil, nil, nil) }
        left(self)
    }

    /// How the bound connection's process is confined; `nil` while none is bound.
    var confinement: CallerConfinement? {
        binding.withLock { $0.confinement }
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
    /// posted (``UserNotifications/EngineCore/agentApp(identity:client:clock:host:stateDirectory:locationHub:undelivered:taskExecutor:saves:)``).
    ///
    /// `travelBytes` (the size of the request's record) counts against ``AgentLimits/appStateBytes`` and,
    /// with `othersBytes` (what the agent's other apps hold), ``AgentLimits/agentStateBytes``.
    ///
    /// `files` are the open files its attachments' bytes are copied from (``AgentService/addWithFiles(_:bytes:sources:to:presentation:accepted:)``).
    ///
    /// Unless the bound connection is a host app's, a sound, a localization's bundle or (with no
    /// `files`) an attachment named by path is refused with
    /// ``UserNotifications/NotificationAgentError/notAllowed(_:)`` before anything opens it.
    func add(
        _ request: UNNotificationRequest, travelBytes: Int = 0, othersBytes: @Sendable () -> Int = { 0 },
        presentation: UNNotificationPresentationOptions? = nil, files: [Int32]? = nil, accepted: (@Sendable () -> Void)? = nil
    ) async throws {
        if confinement != .host, let sound = request.content.sound?.name?.rawValue, sound.hasPrefix("/") {
            // The agent would check and play a host path a sandbox (or, unbound, a push) named: a sound file
            // travels as an audio attachment (a descriptor), a named sound is a theme name.
            throw NotificationAgentError.notAllowed(
                "a sandboxed app names its sound from the sound theme or attaches the file, not by path")
        }
        if confinement != .host, files == nil, !request.content.attachments.isEmpty {
            // Without descriptors the engine opens the paths the attachments name: a pushed
            // request's content, as the app's service extension gave it back, names them.
            throw Self.attachmentPathsRefused
        }
        if confinement != .host, let field = AgentPayload.bundlePathField(in: request.content) {
            // The agent would open the bundle at delivery to look the text up: a host path a
            // sandbox named. The app sends the text itself, or a key of its main bundle.
            throw NotificationAgentError.notAllowed("\(field): a sandboxed app does not name a bundle by path")
        }
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
        try await reserve(bytes: travelBytes, othersBytes: othersBytes)
        try await engine.add(request, presentation: presentation, files: files, accepted: accepted)
    }

    /// The refusal of attachments named by path from a caller that is not a host app.
    static let attachmentPathsRefused = NotificationAgentError.notAllowed(
        "a sandboxed app hands its attachment files over as descriptors (AddFiles), not as paths")

    /// Sets the app's categories from the records of its `SetCategories`, their bytes counted
    /// against the app's and the agent's budgets in place of those of the categories set
    /// before (one `SetCategories` is at most 1 MiB; 128 apps could otherwise hold 128 MiB
    /// outside every budget).
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/invalidArgument(_:)`` for records
    ///   that are not categories; ``UserNotifications/NotificationAgentError/limitReached(_:)``
    ///   past a budget, and the categories set before stay.
    func setCategories(_ records: [AgentPayload.Record], othersBytes: @Sendable () -> Int) async throws(NotificationAgentError) {
        let categories = try AgentPayload.categories(from: records)
        let size = records.reduce(0) { $0 + AgentPayload.size(of: $1) }
        let previous = categoryBytes.withLock { $0 }
        if size > previous {
            try await reserve(bytes: size - previous, othersBytes: othersBytes)
        } else {
            bytes.withLock { $0.estimate = max(0, $0.estimate - (previous - size)) }
        }
        categoryBytes.withLock { $0 = size }
        engine.setCategories(categories)
    }

    /// Counts `count` more bytes against the app's and the agent's budgets, measuring the app's
    /// lists again first when the estimate would pass one (``AgentAppBytes``).
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/limitReached(_:)`` past a budget.
    private func reserve(bytes count: Int, othersBytes: @Sendable () -> Int) async throws(NotificationAgentError) {
        guard count > 0 else { return }
        let others = othersBytes()
        func over(_ estimate: Int) -> Bool {
            estimate + count > caps.appStateBytes || others + estimate + count > caps.agentStateBytes
        }
        var held = bytes.withLock { $0 }
        if over(held.estimate), held.mayMeasure(now: .now) {
            let measured = await measureBytes()
            held = AgentAppBytes(estimate: measured, measuredAt: .now)
            bytes.withLock { $0 = held }
        }
        if over(held.estimate) {
            if held.estimate + count > caps.appStateBytes {
                throw .limitReached("\(appID) holds \(held.estimate) bytes of requests and categories; \(count) more would pass \(caps.appStateBytes)")
            }
            throw .limitReached("the agent holds \(others + held.estimate) bytes of requests and categories; \(count) more would pass \(caps.agentStateBytes)")
        }
        bytes.withLock { $0.estimate += count }
    }

    /// The bytes of the app's pending and shown requests, as their records
    /// (``UserNotifications/AgentPayload/size(of:)``), and of its categories. The lists are
    /// measured on the global executor: an app's calls run on the D-Bus I/O thread, which
    /// serves every app, and up to 16 MiB of JSON held it for about a second (debug build)
    /// when they travelled as JSON.
    func measureBytes() async -> Int {
        let pending = await engine.pendingRequests()
        let delivered = await engine.deliveredNotifications()
        do {
            return try await Task.detached {
                Self.measuring.withLock { $0?() }
                var total = 0
                for request in pending { total += AgentPayload.size(of: try AgentPayload.encode(request)) }
                for notification in delivered { total += AgentPayload.size(of: try AgentPayload.encode(notification)) }
                return total
            }.value + categoryBytes.withLock { $0 }
        } catch {
            SubsystemLog.agent.logger.error(
                "the app's lists could not be measured; the estimate stands", metadata: ["app": "\(appID)", "error": SubsystemLog.describe(error)])
            return bytes.withLock { $0.estimate }
        }
    }

    /// Called as the lists are encoded for ``measureBytes()``, where that runs (tests).
    static let measuring = Locked<(@Sendable () -> Void)?>(nil)

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
