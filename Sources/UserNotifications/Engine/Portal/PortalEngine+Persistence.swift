import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation

// The portal keeps neither the pending requests nor a list of what it shows, so the engine
// keeps both in the app's state file, the in-process engine's `notifications.json`
// (``EngineState``), written crash-safe and merged with what other processes of the app wrote.
extension PortalEngine {
    /// The `server` under which a delivered notification of the portal engine is saved: the
    /// portal's bus name, which no notification server's unique name can equal, so the
    /// in-process engine, reading the same file, keeps none of them as its own, and this engine
    /// keeps only these.
    static let savedServer = PortalInterface.busName

    /// Reads the saved state: categories and authorization when the center has none yet,
    /// pending requests rescheduled (an overdue one fires once, now), and the notifications this
    /// engine delivered and has not seen withdrawn or answered. A file that cannot be read is
    /// logged and nothing is written over it (saves wait until a read succeeds).
    func restore() {
        guard let store else { return }
        let saved: EngineState
        do {
            switch try store.load() {
            case .loaded(let state): saved = state
            case .fresh: saved = EngineState()
            case .setAside(let reason, let movedTo):
                CenterLog.logger.error(
                    "the saved state could not be trusted; it was set aside",
                    metadata: ["reason": "\(reason)", "movedTo": "\(TerminalText.singleLine(movedTo.path))"])
                saved = EngineState()
            }
        } catch {
            CenterLog.logger.error("the notification state is not read; it is not saved either", metadata: ["error": CenterLog.describe(error)])
            stateProblem.withLock { $0 = error }
            return
        }
        let rescheduled: [(String, Date)] = state.withLock { state in
            if state.categories.isEmpty {
                for snapshot in saved.categories {
                    let category = snapshot.makeCategory()
                    state.categories[category.identifier] = category
                }
            }
            if state.authorizationStatus == .notDetermined,
               let status = saved.authorizationStatus.flatMap(UNAuthorizationStatus.init(rawValue:)) {
                state.authorizationStatus = status
                state.authorizationOptions = UNAuthorizationOptions(rawValue: saved.authorizationOptions ?? 0)
            }
            var rescheduled: [(String, Date)] = []
            for entry in saved.pending where state.pending[entry.request.identifier] == nil {
                state.pending.insert(PendingEntry(request: entry.request.makeRequest(), anchor: entry.anchor, nextFire: entry.nextFire))
                rescheduled.append((entry.request.identifier, entry.nextFire))
            }
            for entry in saved.delivered where entry.server == Self.savedServer {
                let notification = entry.notification.makeNotification()
                guard state.delivered[notification.request.identifier] == nil else { continue }
                let actions = state.categories[notification.request.content.categoryIdentifier]?.actions ?? []
                state.delivered[notification.request.identifier] = PortalDelivered(notification: notification, actions: actions)
            }
            return rescheduled
        }
        saveBaseline.withLock { $0 = saved }
        stateProblem.withLock { $0 = nil }
        for (identifier, due) in rescheduled { scheduler?.schedule(identifier, at: due) }
    }

    /// Writes the state now, merged under the file's lock with what other processes of the app
    /// wrote since this engine last read or wrote it (``EngineState/merged(over:since:)``).
    /// Saves are one at a time, each with the state as it is when its turn comes, so the last
    /// write holds the newest state. A failure is logged and kept for ``writeStateNow()``.
    func save() {
        guard let store else { return }
        saveBaseline.withLock { baseline in
            guard let since = baseline else { return }
            let ours = snapshot()
            do {
                try store.update { stored in
                    let current: EngineState
                    if case .loaded(let state) = stored { current = state } else { current = EngineState() }
                    return ours.merged(over: current, since: since)
                }
                baseline = ours
                stateProblem.withLock { $0 = nil }
            } catch {
                CenterLog.logger.error("the notification state is not saved", metadata: ["error": CenterLog.describe(error)])
                stateProblem.withLock { $0 = error }
            }
        }
    }

    /// What this engine keeps, as the state file holds it.
    private func snapshot() -> EngineState {
        state.withLock { state in
            var saved = EngineState()
            saved.pending = state.pending.entries.values.compactMap { entry in
                Self.snapshot(of: entry.identifier) {
                    EngineState.Pending(request: try NotificationRequestSnapshot(entry.request), anchor: entry.anchor, nextFire: entry.nextFire)
                }
            }
            saved.delivered = state.delivered.values.compactMap { entry in
                Self.snapshot(of: entry.identifier) {
                    EngineState.Delivered(notification: try NotificationSnapshot(entry.notification), server: Self.savedServer, id: 0)
                }
            }
            saved.categories = state.categories.values.map(NotificationCategorySnapshot.init)
            saved.authorizationStatus = state.authorizationStatus.rawValue
            saved.authorizationOptions = state.authorizationOptions.rawValue
            return saved
        }
    }

    private static func snapshot<Entry>(of identifier: String, _ make: () throws -> Entry) -> Entry? {
        do {
            return try make()
        } catch {
            CenterLog.logger.error(
                "a notification was left out of the saved state", metadata: ["identifier": "\(identifier)", "error": CenterLog.describe(error)])
            return nil
        }
    }
}
