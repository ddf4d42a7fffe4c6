import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

// The services in front of which the engine works keep neither the pending requests nor a
// list the engine can read back, so the engine keeps both in the app's state file, as the
// in-process engine keeps its own, and saves them as it does (``SaveCoalescing``): the first
// change of a burst is written at once, the rest once at the end of the burst and at close.
extension ServiceEngine {
    /// Reads the saved state: categories and authorization when the center has none yet,
    /// pending requests rescheduled (an overdue one fires once, now) or, with a location
    /// trigger, watched again (``restoreWatch(_:trigger:into:)``), and the notifications this
    /// engine delivered (those saved under the service's ``NotificationService/busName``) and
    /// has not seen withdrawn or answered, at most ``ServiceEngine/maximumDelivered`` of them
    /// (the newest). A file that cannot be read is logged and nothing is written over it (each
    /// save reads it again first, and writes once a read succeeds).
    func restore() {
        guard let file = store.file else { return }
        let saved: EngineState
        do {
            saved = EngineState.state(from: try file.load())
        } catch {
            SubsystemLog.center.logger.error("the notification state is not read; it is not saved either", metadata: ["error": SubsystemLog.describe(error)])
            store.problem.withLock { $0 = error }
            return
        }
        let (rescheduled, trimmed): ([(String, Date)], Int) = state.withLock { state in
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
            for kept in saved.pending where state.pending[kept.request.identifier] == nil {
                let entry = PendingEntry(request: kept.request.makeRequest(), anchor: kept.anchor, nextFire: kept.nextFire)
                if let trigger = entry.request.trigger as? UNLocationNotificationTrigger {
                    restoreWatch(entry, trigger: trigger, into: &state)
                    continue
                }
                state.pending.insert(entry)
                rescheduled.append((entry.identifier, entry.nextFire))
            }
            for entry in saved.delivered where entry.server == service.busName {
                let notification = entry.notification.makeNotification()
                guard state.delivered[notification.request.identifier] == nil else { continue }
                state.delivered.record(ServiceDelivered(restoring: notification, nonce: entry.nonce, categories: state.categories))
            }
            // A file written before the list was bounded (GNOME's, until d5ed40b) may hold more.
            return (rescheduled, state.delivered.trim(to: Self.maximumDelivered).count)
        }
        store.baseline.withLock { $0 = saved }
        store.problem.withLock { $0 = nil }
        for (identifier, due) in rescheduled { scheduler?.schedule(identifier, at: due) }
        if trimmed > 0 {
            SubsystemLog.center.logger.info(
                "the saved delivered list held more than \(Self.maximumDelivered); the oldest left it",
                metadata: ["dropped": "\(trimmed)"])
            stateChanged()
        }
    }

    /// Saves the change as ``SaveCoalescing`` decides: at once when nothing was written
    /// lately, so an app that adds one request and exits keeps it; else once at the end of
    /// the burst (or at ``flushSave()``, which ``close()`` and ``writeStateNow()`` call).
    func stateChanged() {
        guard store.file != nil else { return }
        let decision = store.timing.withLock { $0.change(at: ContinuousClock.now) }
        SaveCoalescing.carryOut(decision, write: {
            store.timing.withLock { $0.writeStarted(at: ContinuousClock.now) }
            write()
        }, flush: { self.flushSave() })
    }

    /// Writes a save that is still waiting for its burst to end, now.
    func flushSave() {
        guard store.timing.withLock({ $0.takeWaitingWrite(at: ContinuousClock.now) }) else { return }
        write()
    }

    /// Writes a waiting save now, then reports why the state is not saved, if it is not.
    ///
    /// - Throws: ``StateStoreError`` when the state could not be read or written;
    ///   ``InvalidApplicationIdentifierError`` when the app id cannot name its folder.
    func writeStateNow() async throws {
        flushSave()
        if let problem = store.problem.withLock({ $0 }) { throw problem }
    }

    /// Writes the state, merged under the file's lock with what other processes of the app
    /// wrote since this engine last read or wrote it
    /// (``EngineState/write(_:to:since:unchangedSince:)``). Writes are one at a time, each
    /// with the state as it is when its turn comes, so the last write holds the newest state.
    /// A failure is logged and kept for ``writeStateNow()``. While the file has not been read
    /// (the read at start failed), each write reads it first, as the in-process engine does,
    /// and writes nothing when it still cannot be read.
    private func write() {
        guard let file = store.file else { return }
        if store.baseline.withLock({ $0 == nil }) { restore() }
        let started = ContinuousClock.now
        defer {
            let duration = ContinuousClock.now - started
            store.timing.withLock { $0.writeEnded(after: duration) }
        }
        store.baseline.withLock { baseline in
            guard let since = baseline else { return }
            let ours = snapshot()
            do {
                let stamp = try EngineState.write(ours, to: file, since: since, unchangedSince: store.stamp.withLock { $0 })
                store.stamp.withLock { $0 = stamp }
                baseline = ours
                store.problem.withLock { $0 = nil }
            } catch {
                store.stamp.withLock { $0 = nil }
                SubsystemLog.center.logger.error("the notification state is not saved", metadata: ["error": SubsystemLog.describe(error)])
                store.problem.withLock { $0 = error }
            }
        }
    }

    /// What this engine keeps, as the state file holds it.
    private func snapshot() -> EngineState {
        state.withLock { state in
            var saved = EngineState()
            saved.pending = state.pending.entries.values.compactMap { entry in
                EngineState.entry(of: entry.identifier) {
                    EngineState.Pending(request: try NotificationRequestSnapshot(entry.request), anchor: entry.anchor, nextFire: entry.nextFire)
                }
            }
            saved.delivered = state.delivered.all.compactMap { entry in
                EngineState.entry(of: entry.notification.request.identifier) {
                    EngineState.Delivered(
                        notification: try NotificationSnapshot(entry.notification), server: service.busName, id: 0, nonce: entry.actionNonce)
                }
            }
            saved.categories = state.categories.values.map(NotificationCategorySnapshot.init)
            saved.authorizationStatus = state.authorizationStatus.rawValue
            saved.authorizationOptions = state.authorizationOptions.rawValue
            return saved
        }
    }
}
