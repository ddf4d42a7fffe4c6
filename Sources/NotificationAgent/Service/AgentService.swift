public import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications
public import Foundation
public import UserNotifications

/// The per-user notification agent: it owns `org.desktopnotifications.Agent`, serves
/// `org.desktopnotifications.Agent1`, and hosts one engine per app id, which posts with the
/// app's identity and outlives the app's process.
///
/// Each app's state is in `<stateRoot>/<app-id>/` (by default
/// `$XDG_STATE_HOME/desktopnotifications-agent/`): the engine's crash-safe state file and
/// `agent.json` (the identity and the queued responses). At start the agent restores every app
/// found there, so pending requests fire while their apps are not running. All engines share
/// one clock alarm (``UserNotifications/MultiplexedNotificationClock``).
///
/// An app's calls are taken one at a time, in the order the connection read them: a call that
/// waits (an `Add` whose app is asked `WillPresent`) holds that app's later calls, never
/// another app's.
public final class AgentService: Sendable {
    /// The default state root: `$XDG_STATE_HOME/desktopnotifications-agent/`.
    public static var defaultStateRoot: URL {
        ApplicationIdentity.stateHome.appendingPathComponent("desktopnotifications-agent", isDirectory: true)
    }

    /// The agent's connection: it serves `Agent1` from it, and every app's engine posts over
    /// it and hears the server's signals on it (``notifications``).
    public let connection: DBusConnection
    /// The notification server's client every app's engine shares, over ``connection``: one
    /// connection and one decode of each signal for any number of apps, where a connection
    /// per app cost a descriptor and a decode of every signal per app.
    let notifications: NotificationsClient
    let clock: any NotificationClock
    let launcher: any AppLaunching
    let identifying: any CallerIdentifying
    let stateRoot: URL
    /// The caps each app's `Add` is checked against.
    let caps: AgentLimits.AddCaps
    let apps = Locked<[String: AgentApp]>([:])
    /// The saves of every app's engine, spaced as one group.
    let saves = SaveLoad()
    private let export = Locked<DBusConnection.Export?>(nil)
    let idleWatch = Locked<AgentIdleWatch?>(nil)
    let idleSignals = Locked<DBusSignalHandle?>(nil)
    /// Remote notifications (`AgentPush1` and the UnifiedPush connector), once started.
    let pushSide = Locked<AgentPush?>(nil)

    private init(
        connection: DBusConnection, bus: NotificationBus, clock: any NotificationClock, launcher: any AppLaunching,
        identifying: any CallerIdentifying, stateRoot: URL, caps: AgentLimits.AddCaps
    ) {
        self.connection = connection
        notifications = NotificationsClient(sharing: connection, on: bus.dbusBus)
        self.clock = MultiplexedNotificationClock(base: clock)
        self.launcher = launcher
        self.identifying = identifying
        self.stateRoot = stateRoot
        self.caps = caps
    }

    /// Connects to `bus`, restores the apps kept in `stateRoot`, serves the interface and
    /// takes the agent's name.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/failed(_:)`` when another process
    ///   owns the name; a `DBusError` when the bus cannot be reached.
    public static func start(
        bus: NotificationBus = .session, clock: any NotificationClock = SystemNotificationClock(),
        launcher: any AppLaunching = NoAppLauncher(), identifying: any CallerIdentifying = DeclaredAppIdentity(),
        stateRoot: URL = AgentService.defaultStateRoot
    ) async throws -> AgentService {
        try await start(bus: bus, clock: clock, launcher: launcher, identifying: identifying, stateRoot: stateRoot, caps: .standard)
    }

    /// ``start(bus:clock:launcher:identifying:stateRoot:)`` with per-app caps other than the
    /// documented ones (tests give small ones).
    package static func start(
        bus: NotificationBus, clock: any NotificationClock, launcher: any AppLaunching, identifying: any CallerIdentifying,
        stateRoot: URL, caps: AgentLimits.AddCaps
    ) async throws -> AgentService {
        let connection = try await DBusConnection.connect(to: bus.dbusBus)
        let service = AgentService(
            connection: connection, bus: bus, clock: clock, launcher: launcher, identifying: identifying, stateRoot: stateRoot,
            caps: caps)
        service.restoreApps()
        let interface = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) {
            [weak service] invocation in
            guard let service else { return invocation.fail(name: AgentErrorName.prefix + "Failed", message: "the agent is stopping") }
            service.route(invocation)
        }
        let pushInterface = try service.pushInterface()
        service.export.withLock {
            $0 = connection.export(DBusExportedObject(path: AgentInterface.path, interfaces: [interface, pushInterface]))
        }
        try service.startPush()
        switch try await connection.requestName(AgentInterface.busName) {
        case .primaryOwner, .alreadyOwner:
            return service
        case .inQueue, .exists:
            await connection.close()
            throw NotificationAgentError.failed("\(AgentInterface.busName) is owned by another process")
        }
    }

    /// Gives the name back, stops serving and writes every app's state.
    public func stop() async {
        stopIdleWatch()
        do {
            try await connection.releaseName(AgentInterface.busName)
        } catch {
            // Closing the connection below releases it all the same.
            SubsystemLog.agent.logger.warning("the agent's name was not released before closing", metadata: ["error": SubsystemLog.describe(error)])
        }
        export.withLock { $0?.unexport() }
        pushSide.withLock { $0 }?.stop()
        for app in apps.withLock({ Array($0.values) }) {
            await app.host.flushRecord(closing: true)
            do {
                try await app.engine.writeStateNow()
            } catch {
                SubsystemLog.agent.logger.error(
                    "an app's state was not written as the agent stopped", metadata: ["app": "\(app.appID)", "error": SubsystemLog.describe(error)])
            }
            // A save the close starts lands before the agent goes on (and may exit).
            await app.engine.closeAfterSaving()
        }
        await connection.close()
    }

    /// The state folder of `appID`.
    func folder(of appID: String) -> URL {
        stateRoot.appendingPathComponent(appID, isDirectory: true)
    }

    /// The app's agent record file.
    func recordFile(of appID: String) -> StateFile<AgentAppRecord> {
        StateFile(folder: folder(of: appID), name: "agent")
    }

    /// The app of `appID`, made with `identity` when the agent holds none yet (tests; the
    /// agent itself makes apps through ``admit(_:identity:)``).
    func app(_ appID: String, identity: ApplicationIdentity) -> AgentApp {
        apps.withLock { apps in
            if let app = apps[appID] { return app }
            let app = makeApp(appID, record: AgentAppRecord(identity: identity))
            apps[appID] = app
            return app
        }
    }

    /// The app of `appID`, made with `identity` when the agent holds none yet and holds fewer
    /// than ``AgentLimits/apps``.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/limitReached(_:)`` when the agent
    ///   holds as many apps as it may, or a new app would pass ``AgentLimits/keptApps``.
    func admit(_ appID: String, identity: ApplicationIdentity) throws(NotificationAgentError) -> AgentApp {
        if apps.withLock({ $0[appID] }) == nil, !FileManager.default.fileExists(atPath: folder(of: appID).path),
           keptAppCount() >= AgentLimits.keptApps {
            throw .limitReached("the agent keeps the state of \(AgentLimits.keptApps) apps")
        }
        let admitted: AgentApp? = apps.withLock { apps in
            if let app = apps[appID] { return app }
            guard apps.count < caps.apps else { return nil }
            let app = makeApp(appID, record: AgentAppRecord(identity: identity))
            apps[appID] = app
            return app
        }
        guard let admitted else { throw .limitReached("the agent holds \(caps.apps) apps") }
        return admitted
    }

    private func makeApp(_ appID: String, record: AgentAppRecord) -> AgentApp {
        let host = AgentAppHost(
            appID: appID, record: record, recordFile: recordFile(of: appID), connection: connection, launcher: launcher, clock: clock,
            saves: saves, touch: { [weak self] in self?.touched() })
        return AgentApp(
            appID: appID, identity: record.identity(appID: appID), host: host, notifications: notifications, clock: clock, folder: folder(of: appID), caps: caps,
            saves: saves, left: { [weak self] app in self?.releaseLater(app) })
    }

    /// How long an app that left waits before ``releaseIfEmpty(_:)`` looks at it: a click's
    /// response may still be on its way from the engine to the app's queue (the server closes
    /// the notification as it reports the click), and the app must not look empty meanwhile.
    static let releaseGrace: Duration = .seconds(2)

    /// ``releaseIfEmpty(_:)`` after ``releaseGrace``.
    func releaseLater(_ app: AgentApp) {
        Task { [weak self] in
            try? await Task.sleep(for: Self.releaseGrace)
            self?.releaseIfEmpty(app)
        }
    }

    /// Lets `app` go, on its queue, when it is not connected and holds nothing: no pending
    /// request, no shown notification, no queued response and no push registration. Its
    /// engine is closed, so that it takes neither a place among ``AgentLimits/apps`` nor a bus
    /// connection; its state folder is removed too when it keeps no categories and no
    /// authorization answer (else the app's next `Connect` reads them back).
    func releaseIfEmpty(_ app: AgentApp) {
        app.work.enqueue { [self] in
            guard app.host.center == nil, app.host.queuedCount == 0, !app.isReleased.withLock({ $0 }) else { return }
            let occupancy = await app.engine.occupancy(of: "")
            guard occupancy.isEmpty else { return }
            guard !FileManager.default.fileExists(atPath: app.folder.appendingPathComponent(RemotePushRecord.fileName).path) else { return }
            let categories = await app.engine.categories()
            let authorization = await app.engine.authorization()
            let keepsSettings = !categories.isEmpty || authorization.status != .notDetermined
            let removed = apps.withLock { apps in
                guard apps[app.appID] === app else { return false }
                apps[app.appID] = nil
                return true
            }
            guard removed else { return }
            app.isReleased.withLock { $0 = true }
            await app.host.flushRecord(closing: true)
            // Its saves run off the engine's actor: the last one lands before the folder goes.
            await app.engine.closeAfterSaving()
            if !keepsSettings {
                do {
                    try PrivateStorage.remove(app.folder.path)
                } catch {
                    SubsystemLog.agent.logger.error(
                        "the state folder of an app let go was not removed", metadata: ["app": "\(app.appID)", "error": SubsystemLog.describe(error)])
                }
            }
            SubsystemLog.agent.logger.info("an app that holds nothing was let go", metadata: ["app": "\(app.appID)", "settings kept": "\(keepsSettings)"])
        }
    }

    /// How many app folders the state root holds.
    private func keptAppCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: stateRoot.path)) ?? []).count
    }

    /// Restores each app that has an `agent.json` under the state root.
    /// Apps that hold nothing are let go at once (``releaseIfEmpty(_:)``); past
    /// ``AgentLimits/apps``, the rest stay on disk, unread, and a log line says so.
    private func restoreApps() {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: stateRoot.path)) ?? []).sorted()
        for appID in names where (try? ApplicationIdentity.validate(id: appID)) != nil {
            guard apps.withLock({ $0.count }) < caps.apps else {
                SubsystemLog.agent.logger.error("more apps are kept than the agent holds; the rest wait", metadata: ["app": "\(appID)"])
                break
            }
            guard case .loaded(let record)? = try? recordFile(of: appID).load() else { continue }
            let app = makeApp(appID, record: record)
            apps.withLock { $0[appID] = app }
            releaseIfEmpty(app)
        }
    }
}
