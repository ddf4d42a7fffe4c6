import DBus
import DesktopNotificationsSupport
import Foundation
import Logging

extension UNUserNotificationCenter {
    /// The environment variable that names the distributor to use when the app names none
    /// (`org.unifiedpush.Distributor.<name>` or just `<name>`).
    public static let unifiedPushDistributorVariable = "DESKTOPNOTIFICATIONS_UNIFIEDPUSH_DISTRIBUTOR"

    /// Registers the app for remote notifications with a UnifiedPush distributor on the
    /// session bus, and returns where its server sends pushes and the keys it encrypts them
    /// with. A Linux addition, in place of `UIApplication.registerForRemoteNotifications()`
    /// and the app delegate's `didRegisterForRemoteNotificationsWithDeviceToken` /
    /// `didFailToRegisterForRemoteNotificationsWithError` (see
    /// ``RemoteNotificationRegistration``).
    ///
    /// Call it at every launch, as Apple asks: the distributor answers with the current
    /// endpoint. The app's Web Push keys (a P-256 key and a 16-byte secret) are made at the
    /// first call and kept in `push.json` in the app's state folder (mode 0600); a center that
    /// keeps no state makes new keys each run.
    ///
    /// The center serves `org.unifiedpush.Connector2` at `/org/unifiedpush/Connector` under
    /// the app id, on the connection of ``serveApplicationInterface()`` (started here when it
    /// is not serving yet), so that the distributor can start the app by D-Bus activation.
    /// When another process owns the app id, the connector serves under the connection's
    /// unique name, reachable only while this process runs. Each message is decrypted (RFC
    /// 8291), read as ``RemoteNotificationPayload`` and delivered as
    /// ``deliverRemoteNotification(_:collapseIdentifier:)`` does: a request with a
    /// ``UNPushNotificationTrigger``, through the service extension when the payload has
    /// `mutable-content`, and the delegate's `willPresent` as for any notification. A message
    /// that does not decrypt or decode is logged (label `org.desktopnotifications.center`) and
    /// dropped.
    ///
    /// When the agent holds the app's notifications (``engineKind`` is `.agent`), the agent
    /// registers instead (`org.desktopnotifications.AgentPush1`), under its own bus name: it
    /// keeps the keys, and takes and shows the app's pushes, also while the app is not running.
    /// The agent asks this center to run the service extension on a mutable push while the
    /// center is connected to it (within the extension's deadline, at most 35 s); a push that
    /// arrives while the app is not running is shown as sent (Apple starts the extension's own
    /// process for it).
    ///
    /// - Parameters:
    ///   - distributor: the distributor, `org.unifiedpush.Distributor.<name>` or `<name>`;
    ///     `nil` takes ``unifiedPushDistributorVariable``, else the one chosen before, else the
    ///     first by name of those running or activatable (UnifiedPush leaves the choice to the
    ///     app).
    ///   - description: what the registration is for, which a distributor may show (at most
    ///     100 bytes are sent).
    /// - Returns: the endpoint and keys to give the app's server.
    /// - Throws: ``RemoteNotificationRegistrationError``.
    public func registerForRemoteNotifications(
        distributor: String? = nil, description: String? = nil
    ) async throws(RemoteNotificationRegistrationError) -> RemoteNotificationRegistration {
        if let agent = await agentEngine() {
            return try await registerThroughAgent(agent, distributor: distributor, description: description)
        }
        var record = try remotePushRecord()
        let keys: WebPushKeys
        do {
            keys = try record.keys(path: RemotePushRecord.fileName)
        } catch {
            throw .storage("\(error)")
        }
        let connector = try await remotePushConnector()
        let chosen = try await chooseDistributor(distributor, saved: record.distributor, on: connector.connection)
        let endpoint = try await connector.register(
            token: record.token, distributor: chosen, description: description,
            handlers: remotePushHandlers(keys: keys, distributor: chosen))
        guard let url = URL(string: endpoint) else { throw .noEndpoint(distributor: chosen) }
        record.distributor = chosen
        record.endpoint = endpoint
        try saveRemotePushRecord(record)
        return RemoteNotificationRegistration(endpoint: url, p256dh: keys.p256dh, auth: keys.auth, distributor: chosen)
    }

    /// Unregisters the app from its distributor (`Unregister`): no more pushes arrive, and the
    /// endpoint is forgotten. The keys stay. A Linux addition, as
    /// `UIApplication.unregisterForRemoteNotifications()`.
    ///
    /// - Throws: ``RemoteNotificationRegistrationError``; nothing when the app was not registered.
    public func unregisterForRemoteNotifications() async throws(RemoteNotificationRegistrationError) {
        if let agent = await agentEngine() {
            _ = try await callAgentPush(agent, .unregister(.init(appID: identity.id)))
            return
        }
        var record = try remotePushRecord()
        guard let distributor = record.distributor else { return }
        let connector = try await remotePushConnector()
        try connector.unregister(token: record.token, distributor: distributor)
        record.distributor = nil
        record.endpoint = nil
        try saveRemotePushRecord(record)
    }

    /// Called on the main actor when the distributor changes the app's registration: a new
    /// endpoint (also the first one of each registration) or `Unregistered`. A Linux addition:
    /// Apple calls `didRegisterForRemoteNotificationsWithDeviceToken` again when the token
    /// changes.
    public var remoteNotificationRegistrationHandler: (@MainActor @Sendable (RemoteNotificationRegistration.Change) -> Void)? {
        get { remotePush.withLock { $0.handler } }
        set { remotePush.withLock { $0.handler = newValue } }
    }

    // MARK: - Internals

    /// The agent's engine, when the center's notifications live in the agent.
    private func agentEngine() async -> AgentEngine? {
        guard await engineKind == .agent else { return nil }
        return engine.agentEngine
    }

    /// Registers through the agent (`AgentPush1.Register`): the agent keeps the keys and
    /// takes the messages, so they arrive while the app is not running.
    private func registerThroughAgent(
        _ agent: AgentEngine, distributor: String?, description: String?
    ) async throws(RemoteNotificationRegistrationError) -> RemoteNotificationRegistration {
        var options: [String: DBusValue] = [:]
        if let distributor { options["distributor"] = .string(distributor) }
        if let description { options["description"] = .string(description) }
        let reply = try await callAgentPush(agent, .register(.init(appID: identity.id, options: options)))
        let fields = (try? AgentPush1Spec.RegisterReply(reply.body))?.registration ?? [:]
        guard let endpoint = fields["endpoint"]?.stringValue, let url = URL(string: endpoint), let p256dh = fields["p256dh"]?.stringValue,
              let auth = fields["auth"]?.stringValue, let chosen = fields["distributor"]?.stringValue else {
            throw .bus("the agent's registration lacks a field")
        }
        return RemoteNotificationRegistration(endpoint: url, p256dh: p256dh, auth: auth, distributor: chosen)
    }

    private func callAgentPush(_ agent: AgentEngine, _ call: AgentPush1Spec.Call) async throws(RemoteNotificationRegistrationError) -> DBusMessage {
        do {
            let message = try call.message(to: AgentInterface.busName, path: AgentInterface.path)
            return try await agent.connection.call(message, timeout: AgentEngine.callDeadline)
        } catch {
            throw AgentPushInterface.decode(error)
        }
    }

    /// The record, read once (or made), then kept in memory.
    private func remotePushRecord() throws(RemoteNotificationRegistrationError) -> RemotePushRecord {
        if let record = remotePush.withLock({ $0.record }) { return record }
        let record: RemotePushRecord
        if let folder = remotePushFolder {
            do {
                record = try RemotePushRecord.loadOrCreate(in: folder)
            } catch {
                throw .storage("\(error)")
            }
        } else {
            record = RemotePushRecord.fresh()
        }
        return remotePush.withLock { side in
            if let existing = side.record { return existing }
            side.record = record
            return record
        }
    }

    /// Keeps `record` in memory and in `push.json` under one lock, so that the file always
    /// holds the last record kept.
    private func saveRemotePushRecord(_ record: RemotePushRecord) throws(RemoteNotificationRegistrationError) {
        if let failure = keepRemotePushRecord(replacing: record, { _ in }) { throw .storage("\(failure)") }
    }

    /// Changes the record in memory and in `push.json` under the lock; the error, if the file
    /// could not be written.
    @discardableResult
    private func keepRemotePushRecord(
        replacing replacement: RemotePushRecord? = nil, _ change: (inout RemotePushRecord) -> Void
    ) -> RemotePushStoreError? {
        remotePush.withLock { side -> RemotePushStoreError? in
            guard var record = replacement ?? side.record else { return nil }
            change(&record)
            side.record = record
            guard let folder = remotePushFolder else { return nil }
            do throws(RemotePushStoreError) {
                try record.save(in: folder)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The connector, started at the first call.
    private func remotePushConnector() async throws(RemoteNotificationRegistrationError) -> UnifiedPushConnector {
        if let connector = remotePush.withLock({ $0.connector }) { return connector }
        let connection: DBusConnection
        let serviceName: String
        var own: DBusConnection?
        do {
            try await serveApplicationInterface()
        } catch {
            SubsystemLog.center.logger.warning(
                "the app id is not ours on the bus; the push connector serves under a unique name while the app runs",
                metadata: ["error": SubsystemLog.describe(error)])
        }
        if let server = applicationSide.withLock({ $0.server }) {
            connection = server.connection
            serviceName = identity.id
        } else {
            do {
                connection = try await DBusConnection.connect(to: bus.dbusBus)
            } catch {
                throw .bus("\(error)")
            }
            serviceName = connection.uniqueName
            own = connection
        }
        let connector = try UnifiedPushConnector.serve(on: connection, serviceName: serviceName, logger: SubsystemLog.center.logger)
        let (winner, loser) = remotePush.withLock { side -> (UnifiedPushConnector, UnifiedPushConnector?) in
            if let existing = side.connector { return (existing, connector) }
            side.connector = connector
            side.ownConnection = own
            return (connector, nil)
        }
        if let loser {
            loser.stop()
            if let own { await own.close() }
        }
        return winner
    }

    private func chooseDistributor(
        _ asked: String?, saved: String?, on connection: DBusConnection
    ) async throws(RemoteNotificationRegistrationError) -> String {
        let available: [String]
        do {
            available = try await UnifiedPush.distributors(on: connection)
        } catch {
            throw .bus("\(error)")
        }
        return try UnifiedPush.choose(asked, saved: saved, environment: ProcessInfo.processInfo.environment, available: available)
    }

    private func remotePushHandlers(keys: WebPushKeys, distributor: String) -> UnifiedPushConnector.Handlers {
        UnifiedPushConnector.Handlers(
            newEndpoint: { [weak self] endpoint in
                guard let self else { return }
                if let failure = keepRemotePushRecord({ $0.endpoint = endpoint; $0.distributor = distributor }) {
                    SubsystemLog.center.logger.error("cannot keep the new push endpoint", metadata: ["error": SubsystemLog.describe(failure)])
                }
                guard let handler = remotePush.withLock({ $0.handler }), let url = URL(string: endpoint) else { return }
                let registration = RemoteNotificationRegistration(endpoint: url, p256dh: keys.p256dh, auth: keys.auth, distributor: distributor)
                await MainActor.run { handler(.newEndpoint(registration)) }
            },
            message: { [weak self] bytes, id in
                guard let self else { return }
                await receiveRemoteMessage(bytes, id: id, keys: keys)
            },
            unregistered: { [weak self] in
                guard let self else { return }
                if let failure = keepRemotePushRecord({ $0.endpoint = nil; $0.distributor = nil }) {
                    SubsystemLog.center.logger.error("cannot forget the push endpoint", metadata: ["error": SubsystemLog.describe(failure)])
                }
                if let handler = remotePush.withLock({ $0.handler }) { await MainActor.run { handler(.unregistered) } }
            })
    }

    /// Decrypts a pushed message, reads its payload and delivers it; a failure is logged.
    func receiveRemoteMessage(_ bytes: Data, id: String?, keys: WebPushKeys) async {
        let metadata: Logger.Metadata = ["id": "\(id ?? "")"]
        do {
            let plaintext = try WebPushDecryptor.decrypt(bytes, keys: keys)
            let payload = try RemoteNotificationPayload(json: plaintext)
            try await deliverRemoteNotification(payload)
        } catch {
            SubsystemLog.center.logger.warning("a pushed message was dropped", metadata: metadata.merging(["error": SubsystemLog.describe(error)]) { $1 })
        }
    }
}
