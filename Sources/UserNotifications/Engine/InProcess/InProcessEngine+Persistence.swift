import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

extension InProcessEngine {
    /// Reads the saved state: categories and authorization as they were, pending requests
    /// rescheduled (an overdue one fires once, now), delivered notifications kept only while
    /// the server instance that shows them is still the owner.
    ///
    /// A state that cannot be read (the lock cannot be opened, a read fails, the folder is
    /// another user's) is not taken for an empty one: the file and the stored attachments stay
    /// as they are, the problem is reported, saves wait, and the next save tries again. Once
    /// read, what it holds joins what the center was given meanwhile (which wins).
    func restore() {
        guard let store, savedBaseline == nil else { return }
        let state: EngineState
        do {
            state = EngineState.state(from: try store.load())
        } catch {
            recordStateProblem(error)
            return
        }
        stateProblem = nil
        savedBaseline = state
        adopt(state)
        attachmentStore?.prune(keeping: Set(ledger.counts.keys))
    }

    /// Takes in what `state` holds that the center does not have yet.
    private func adopt(_ state: EngineState) {
        if categories.isEmpty {
            for snapshot in state.categories {
                let category = snapshot.makeCategory()
                categories[category.identifier] = category
            }
        }
        if authorizationStatus == .notDetermined {
            if let status = state.authorizationStatus.flatMap(UNAuthorizationStatus.init(rawValue:)) {
                authorizationStatus = status
            }
            authorizationOptions = UNAuthorizationOptions(rawValue: state.authorizationOptions ?? 0)
        }
        for saved in state.pending where pending[saved.request.identifier] == nil {
            let request = saved.request.makeRequest()
            hold(request)
            if let trigger = request.trigger as? UNLocationNotificationTrigger {
                restoreWatch(request, trigger: trigger, anchor: saved.anchor)
                continue
            }
            pending.insert(PendingEntry(request: request, anchor: saved.anchor, nextFire: saved.nextFire))
            scheduler?.schedule(request.identifier, at: saved.nextFire)
        }
        owner = owner ?? client.serverOwner
        for saved in state.delivered where saved.server == owner && delivered[saved.notification.request.identifier] == nil {
            let notification = saved.notification.makeNotification()
            hold(notification.request)
            delivered.record(DeliveredEntry(notification: notification, key: ServerKey(server: saved.server, id: saved.id)))
        }
    }

    /// Keeps `error` for ``writeStateNow()`` and reports it.
    func recordStateProblem(_ error: any Error) {
        stateProblem = error
        SubsystemLog.center.logger.error(
            "the notification state is not saved", metadata: ["error": SubsystemLog.describe(error)])
    }

    /// Saves the change as ``SaveCoalescing`` decides: at once when nothing was written
    /// lately, so a process that adds one request and exits keeps it; else once at the end of
    /// the burst. Every write is crash-safe (temporary file, fsync, rename, fsync of the
    /// folder).
    func scheduleSave() {
        guard store != nil else { return }
        SaveCoalescing.carryOut(saveTiming.change(at: ContinuousClock.now), write: { saveNow() }, flush: { await self.flushSave() })
    }

    /// Writes a save that is still waiting for its burst to end, now (before a short-lived
    /// process exits).
    func flushSave() {
        if saveTiming.writeWaiting { saveNow() }
    }

    /// Writes a waiting save now, then reports why the state is not saved, if it is not.
    ///
    /// - Throws: ``StateStoreError`` when the state could not be read or written;
    ///   ``InvalidApplicationIdentifierError`` when the app id cannot name its folder.
    func writeStateNow() throws {
        flushSave()
        if let stateProblem { throw stateProblem }
    }

    /// Writes the state at once, merged under the lock with what other processes of the app
    /// wrote since this center last read or wrote it (``EngineState/merged(over:since:)``).
    /// Nothing is written before the state was read once: a file that could not be read is
    /// never replaced.
    ///
    /// A file that still has the stamp of this engine's last save, which held this engine's
    /// state alone, is not read again: nobody else wrote since, so the state replaces it as
    /// it is (the agent, its apps' only writer, never reads back what it wrote).
    func saveNow() {
        guard let store else { return }
        let started = ContinuousClock.now
        saveTiming.writeStarted(at: started)
        defer { saveTiming.writeEnded(after: ContinuousClock.now - started) }
        restore()
        guard let baseline = savedBaseline else { return }
        let ours = snapshot()
        do {
            savedStamp = try EngineState.write(ours, to: store, since: baseline, unchangedSince: savedStamp)
            savedBaseline = ours
            stateProblem = nil
        } catch {
            savedStamp = nil
            recordStateProblem(error)
        }
    }

    func snapshot() -> EngineState {
        var state = EngineState()
        state.pending = pending.entries.values.compactMap { entry in
            EngineState.entry(of: entry.identifier) {
                EngineState.Pending(request: try NotificationRequestSnapshot(entry.request), anchor: entry.anchor, nextFire: entry.nextFire)
            }
        }
        state.delivered = delivered.live.values.compactMap { entry in
            EngineState.entry(of: entry.identifier) {
                EngineState.Delivered(notification: try NotificationSnapshot(entry.notification), server: entry.key.server, id: entry.key.id)
            }
        }
        state.categories = categories.values.map(NotificationCategorySnapshot.init)
        state.authorizationStatus = authorizationStatus.rawValue
        state.authorizationOptions = authorizationOptions.rawValue
        return state
    }
}
