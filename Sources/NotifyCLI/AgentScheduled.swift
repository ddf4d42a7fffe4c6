import DBus
import FreedesktopNotifications
import Foundation
import NotificationAgent
import UserNotifications

/// notify's scheduled notifications that the agent holds (``AgentHandoff``), for `notify
/// pending` and `notify cancel`: the pending requests of the app ids in ``AgentApps``, or, with
/// `--app ID`, of that app, whichever app made them.
///
/// Only an app the agent's `Status` shows with pending requests is connected to (so naming an
/// app the agent does not hold leaves no trace in it); one of notify's ids it holds nothing for
/// is forgotten. Without a reachable agent there are none. Connecting for an app means
/// connecting as that app: the agent lets a caller act for an app id its sandbox or systemd
/// unit names, and for any id when nothing names one (a plain shell of the same user) unless
/// another process is bound to it (the app runs), so another app's requests are reachable from
/// a shell while it is not running, never from inside a Flatpak or another app's unit (see
/// `CallerIdentity` and `DeclaredAppIdentity`).
enum AgentScheduled {
    /// One pending request.
    struct Entry: Sendable {
        /// The app id it was handed over for.
        let appID: String
        /// Its identifier, the id `notify cancel` takes.
        let identifier: String
        /// Its title: notify's summary.
        let summary: String
        /// Its trigger, with the moment it counts from.
        let schedule: Schedule
    }

    /// The requests pending in the agent for notify's app ids.
    ///
    /// - Throws: ``AgentAccess/Failure`` when the agent does not answer or refuses an id.
    static func list(app: String? = nil, now: Date = Date()) async throws(AgentAccess.Failure) -> [Entry] {
        if let app {
            let requests = try await asApp(app) { connection in
                try Agent1Spec.PendingRequestsReply(await call(.pendingRequests(.init(appID: app)), on: connection).body).requests
            }
            guard let requests else { return [] }
            let decoded: [UNNotificationRequest]
            do {
                decoded = try AgentPayload.requests(from: requests)
            } catch {
                throw AgentAccess.Failure(description: "the agent's list of \(app)'s requests does not read: \(error)")
            }
            return decoded.compactMap { request in
                request.trigger.map {
                    Entry(appID: app, identifier: request.identifier, summary: request.content.title, schedule: schedule(of: $0, now: now))
                }
            }
        }
        var entries: [Entry] = []
        for (appID, center) in try await centers() {
            for request in await center.pendingNotificationRequests() {
                guard let trigger = request.trigger else { continue }
                entries.append(Entry(
                    appID: appID, identifier: request.identifier, summary: request.content.title,
                    schedule: schedule(of: trigger, now: now)))
            }
        }
        return entries
    }

    /// Cancels the requests named by `identifiers` (`nil`: all of notify's, or all of `app`'s);
    /// returns those it cancelled.
    ///
    /// - Throws: ``AgentAccess/Failure`` when the agent does not answer or refuses an id.
    static func cancel(_ identifiers: Set<String>?, app: String? = nil) async throws(AgentAccess.Failure) -> Set<String> {
        if let app {
            let cancelled = try await asApp(app) { connection -> Set<String> in
                func pending() async throws -> Set<String> {
                    let json = try Agent1Spec.PendingRequestsReply(await call(.pendingRequests(.init(appID: app)), on: connection).body).requests
                    return Set(try AgentPayload.requests(from: json).map(\.identifier))
                }
                let held = try await pending()
                let chosen = identifiers.map { held.intersection($0) } ?? held
                guard !chosen.isEmpty else { return [] }
                _ = try await call(.removePendingRequests(.init(appID: app, identifiers: chosen.sorted(), all: false)), on: connection)
                return chosen.subtracting(try await pending())
            }
            return cancelled ?? []
        }
        var cancelled: Set<String> = []
        for (_, center) in try await centers() {
            let held = Set(await center.pendingNotificationRequests().map(\.identifier))
            let chosen = identifiers.map { held.intersection($0) } ?? held
            guard !chosen.isEmpty else { continue }
            center.removePendingNotificationRequests(withIdentifiers: Array(chosen))
            // Taken in call order: the answer comes after the removal.
            let left = Set(await center.pendingNotificationRequests().map(\.identifier))
            cancelled.formUnion(chosen.subtracting(left))
        }
        return cancelled
    }

    /// Runs `body` on a connection of notify's own bound to `app` (`Connect` with no name or
    /// icon, so the agent keeps the app's), and closes it; `nil` when the agent is not there or
    /// holds nothing pending for `app`. An agent whose `Connect` answers another interface
    /// version than ``UserNotifications/AgentInterface/version`` (one left running by another
    /// install) is asked nothing more: the failure says to restart it.
    ///
    /// No center is made for `app`: a center would take the responses the agent keeps for the
    /// app's next start (`TakeResponses`) and acknowledge them. While the app's own center is
    /// connected the agent lets no other process act for it, which is said instead of trying.
    private static func asApp<Value: Sendable>(
        _ app: String, _ body: (DBusConnection) async throws -> Value
    ) async throws(AgentAccess.Failure) -> Value? {
        guard let connection = await AgentAccess.reachableConnection() else { return nil }
        do {
            let status = try await AgentAccess.status(on: connection, start: true)
            guard let entry = status.apps.first(where: { $0.appID == app }), entry.pending > 0 else {
                await connection.close()
                return nil
            }
            guard !entry.connected else {
                throw AgentAccess.Failure(description: """
                    \(app) is running (its center is connected to the notification agent), and the agent lets no \
                    other process act for it meanwhile; ask again once it has quit
                    """)
            }
            let version: UInt32?
            do {
                let reply = try await call(.connect(.init(appID: app, identity: [:])), on: connection)
                version = try? Agent1Spec.ConnectReply(reply.body).version
            } catch DBusError.remote(_, let text) {
                throw AgentAccess.Failure(description: "the notification agent does not let notify act for the app \(app): \(TerminalText.singleLine(text))")
            }
            // Its lists are read only in the layout of the version notify speaks.
            guard version == AgentInterface.version else {
                throw AgentAccess.Failure(description: String(describing: NotificationAgentError.incompatibleVersion(agent: version ?? 0)))
            }
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            if let failure = error as? AgentAccess.Failure { throw failure }
            throw AgentAccess.Failure(description: TerminalText.singleLine(String(describing: error)))
        }
    }

    /// Makes `call` of the agent's interface on `connection`.
    private static func call(_ call: Agent1Spec.Call, on connection: DBusConnection) async throws -> DBusMessage {
        try await connection.call(try call.message(to: AgentInterface.busName, path: AgentInterface.path), timeout: .seconds(10))
    }

    /// A center in the agent for each of notify's app ids with pending requests.
    private static func centers() async throws(AgentAccess.Failure) -> [(String, UNUserNotificationCenter)] {
        let ids = AgentApps.list()
        guard !ids.isEmpty, let connection = await AgentAccess.reachableConnection() else { return [] }
        let status: AgentStatus
        do {
            status = try await AgentAccess.status(on: connection, start: true)
            await connection.close()
        } catch {
            await connection.close()
            throw error
        }
        var pending: [String: Int] = [:]
        for app in status.apps { pending[app.appID] = app.pending }
        var centers: [(String, UNUserNotificationCenter)] = []
        for appID in ids {
            guard let count = pending[appID], count > 0 else {
                AgentApps.forget(appID)
                continue
            }
            guard let center = await AgentAccess.center(appID: appID) else {
                throw AgentAccess.Failure(description: "the notification agent does not let notify act for the app \(appID)")
            }
            centers.append((appID, center))
        }
        return centers
    }

    /// The schedule of a pending request's trigger: an interval counts from the moment the
    /// agent took it, a calendar trigger from `now`.
    private static func schedule(of trigger: UNNotificationTrigger, now: Date) -> Schedule {
        let snapshot = NotificationTriggerSnapshot(trigger)
        if case .timeInterval(_, _, let anchor?) = snapshot { return Schedule(trigger: snapshot, anchor: anchor) }
        return Schedule(trigger: snapshot, anchor: now)
    }
}
