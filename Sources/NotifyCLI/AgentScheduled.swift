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
/// unit names, and for any id when nothing names one (a plain shell of the same user), so
/// another app's requests are reachable from a shell, not from inside a Flatpak or another
/// app's unit (see `CallerIdentity`).
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
        var entries: [Entry] = []
        for (appID, center) in try await centers(app: app) {
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
        var cancelled: Set<String> = []
        for (_, center) in try await centers(app: app) {
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

    /// A center in the agent for each of notify's app ids (or for `app` alone) with pending
    /// requests.
    private static func centers(app: String?) async throws(AgentAccess.Failure) -> [(String, UNUserNotificationCenter)] {
        let ids = app.map { [$0] } ?? AgentApps.list()
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
                if app == nil { AgentApps.forget(appID) }
                continue
            }
            guard let center = await AgentAccess.center(appID: appID) else {
                throw AgentAccess.Failure(description: app == nil
                    ? "the notification agent does not let notify act for the app \(appID)"
                    : "the notification agent does not let notify act for the app \(appID): this notify runs as another app (in a Flatpak, or in an app's systemd unit)")
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
