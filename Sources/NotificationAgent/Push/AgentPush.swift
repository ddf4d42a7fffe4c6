import DBus
import DesktopNotificationsSupport
import Foundation
import Logging
import UserNotifications

/// The agent's remote notifications: one `org.unifiedpush.Connector2` on the agent's
/// connection, registered under the agent's bus name, with one connection token per app.
///
/// Each app's Web Push keys, token, distributor and endpoint are kept in its agent folder
/// (`push.json`, mode 0600, replaced whole). A message is decrypted with the app's keys, read
/// as an APNs-style payload, and added to the app's notifications as a push-triggered request:
/// shown with the app's name and icon, through the app's service extension first when it has
/// `mutable-content` and the app is running (see ``AgentAppHost/serviceExtensionRequest(for:)``),
/// its delegate asked `willPresent` when the app is running, and its response kept (and the
/// app launched) as for any other notification. A message that does not decrypt or decode is
/// logged and dropped.
final class AgentPush: Sendable {
    /// Hands a pushed request to the app's engine; `mutable` when its payload has
    /// `mutable-content` (the app's service extension may change it first).
    typealias Deliver = @Sendable (_ appID: String, _ request: UNNotificationRequest, _ mutable: Bool) async -> Void

    let connector: UnifiedPushConnector
    private let stateRoot: URL
    private let deliver: Deliver
    private let records = Locked<[String: RemotePushRecord]>([:])

    /// Serves the connector on `connection` under `serviceName` (the agent's bus name).
    init(connection: DBusConnection, serviceName: String, stateRoot: URL, deliver: @escaping Deliver) throws {
        connector = try UnifiedPushConnector.serve(on: connection, serviceName: serviceName, logger: SubsystemLog.agent.logger)
        self.stateRoot = stateRoot
        self.deliver = deliver
    }

    /// Takes messages again for each of `appIDs` that was registered before the agent stopped.
    func restore(_ appIDs: [String]) {
        for appID in appIDs {
            let path = folder(of: appID).appendingPathComponent(RemotePushRecord.fileName).path
            do {
                guard let record = try RemotePushRecord.load(path: path), let distributor = record.distributor else { continue }
                let keys = try record.keys(path: path)
                records.withLock { $0[appID] = record }
                connector.listen(token: record.token, distributor: distributor, handlers: handlers(appID: appID, keys: keys))
            } catch {
                SubsystemLog.agent.logger.error("an app's push record cannot be read", metadata: ["app": "\(appID)", "error": "\(error)"])
            }
        }
    }

    /// Registers `appID` with a distributor (the one asked, the one chosen before, or the
    /// first on the bus), making its keys at the first call.
    ///
    /// - Throws: ``UserNotifications/RemoteNotificationRegistrationError``.
    func register(appID: String, distributor asked: String?, description: String?) async throws(RemoteNotificationRegistrationError)
        -> RemoteNotificationRegistration
    {
        var record = try record(of: appID)
        let keys: WebPushKeys
        do {
            keys = try record.keys(path: RemotePushRecord.fileName)
        } catch {
            throw .storage("\(error)")
        }
        let available: [String]
        do {
            available = try await UnifiedPush.distributors(on: connector.connection)
        } catch {
            throw .bus("\(error)")
        }
        let chosen = try UnifiedPush.choose(asked, saved: record.distributor, environment: [:], available: available)
        let endpoint = try await connector.register(
            token: record.token, distributor: chosen, description: description, handlers: handlers(appID: appID, keys: keys))
        guard let url = URL(string: endpoint) else { throw .noEndpoint(distributor: chosen) }
        record.distributor = chosen
        record.endpoint = endpoint
        try save(record, of: appID)
        return RemoteNotificationRegistration(endpoint: url, p256dh: keys.p256dh, auth: keys.auth, distributor: chosen)
    }

    /// Unregisters `appID` from its distributor; nothing when it is not registered.
    ///
    /// - Throws: ``UserNotifications/RemoteNotificationRegistrationError``.
    func unregister(appID: String) throws(RemoteNotificationRegistrationError) {
        var record = try record(of: appID)
        guard let distributor = record.distributor else { return }
        try connector.unregister(token: record.token, distributor: distributor)
        record.distributor = nil
        record.endpoint = nil
        try save(record, of: appID)
    }

    /// Stops serving the connector.
    func stop() {
        connector.stop()
    }

    // MARK: - Internals

    private func folder(of appID: String) -> URL {
        stateRoot.appendingPathComponent(appID, isDirectory: true)
    }

    private func record(of appID: String) throws(RemoteNotificationRegistrationError) -> RemotePushRecord {
        if let record = records.withLock({ $0[appID] }) { return record }
        let record: RemotePushRecord
        do {
            record = try RemotePushRecord.loadOrCreate(in: folder(of: appID))
        } catch {
            throw .storage("\(error)")
        }
        return records.withLock { records in
            if let existing = records[appID] { return existing }
            records[appID] = record
            return record
        }
    }

    /// Keeps `record` in memory and on disk under one lock, so that the file always holds the
    /// last record kept (a handler's change and a registration never overtake each other).
    private func save(_ record: RemotePushRecord, of appID: String) throws(RemoteNotificationRegistrationError) {
        let failure = records.withLock { records in keep(record, of: appID, in: &records) }
        if let failure { throw .storage("\(failure)") }
    }

    /// Puts `record` in `records` and saves it to disk, called under the lock of `records`: the
    /// failure to save, or nil.
    private func keep(
        _ record: RemotePushRecord, of appID: String, in records: inout [String: RemotePushRecord]
    ) -> RemotePushStoreError? {
        records[appID] = record
        do throws(RemotePushStoreError) {
            try record.save(in: folder(of: appID))
            return nil
        } catch {
            return error
        }
    }

    private func update(_ appID: String, _ change: (inout RemotePushRecord) -> Void) {
        let failure: RemotePushStoreError? = records.withLock { records in
            guard var record = records[appID] else { return nil }
            change(&record)
            return keep(record, of: appID, in: &records)
        }
        if let failure {
            SubsystemLog.agent.logger.error("an app's push record cannot be kept", metadata: ["app": "\(appID)", "error": "\(failure)"])
        }
    }

    private func handlers(appID: String, keys: WebPushKeys) -> UnifiedPushConnector.Handlers {
        UnifiedPushConnector.Handlers(
            newEndpoint: { [weak self] endpoint in self?.update(appID) { $0.endpoint = endpoint } },
            message: { [weak self] bytes, id in
                guard let self else { return }
                do {
                    let payload = try RemoteNotificationPayload(json: try WebPushDecryptor.decrypt(bytes, keys: keys))
                    guard !payload.isSilent else {
                        return SubsystemLog.agent.logger.info("a silent push has nothing to show", metadata: ["app": "\(appID)"])
                    }
                    await deliver(appID, payload.request(), payload.isMutable)
                } catch {
                    SubsystemLog.agent.logger.warning(
                        "a pushed message was dropped", metadata: ["app": "\(appID)", "id": "\(id ?? "")", "error": "\(error)"])
                }
            },
            unregistered: { [weak self] in
                self?.update(appID) {
                    $0.endpoint = nil
                    $0.distributor = nil
                }
            })
    }
}
