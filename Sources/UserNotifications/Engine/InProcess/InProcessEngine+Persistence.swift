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
    ///
    /// It reads on the actor: the engine of an app's own center. ``restoreOffActor()`` is the
    /// agent's.
    func restore() {
        guard let store, savedBaseline == nil else { return }
        adoptRead(Result { try store.load() })
    }

    /// ``restore()`` with the read (the lock, the file) on a thread of its own
    /// (``StateFileThread``), the actor taking inputs meanwhile; what was read is taken in on
    /// the actor. A read that another one finished first is dropped.
    func restoreOffActor() async {
        guard let store, savedBaseline == nil else { return }
        let read = await StateFileThread.run { Result { try store.load() } }
        guard savedBaseline == nil else { return }
        adoptRead(read)
    }

    /// Takes in the result of a read of the state file.
    private func adoptRead(_ read: Result<StateFile<EngineState>.LoadResult, any Error>) {
        let state: EngineState
        switch read {
        case .success(let result):
            state = EngineState.state(from: result)
        case .failure(let error):
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
    ///
    /// An app's own engine writes on its actor (``saveNow()``), before the call that changed
    /// the state returns. The agent's engines (``savesOffActor``) start the write
    /// (``startSave()``) and go on: their actor runs on the D-Bus I/O thread, and a write
    /// that waits for a slow disk or a lock held on the file must not hold every app's calls.
    func scheduleSave() {
        guard store != nil else { return }
        SaveCoalescing.carryOut(
            saveTiming.change(at: ContinuousClock.now), write: { savesOffActor ? startSave() : saveNow() },
            flush: { await self.flushWaitingSave() })
    }

    /// Writes (starts, off the actor) a save that is still waiting for its burst to end, now.
    func flushWaitingSave() {
        guard saveTiming.writeWaiting else { return }
        if savesOffActor { startSave() } else { saveNow() }
    }

    /// Writes every change not written yet, after the calls made before, then reports why
    /// the state is not saved, if it is not (before a short-lived process exits, and as the
    /// agent stops).
    ///
    /// - Throws: ``StateStoreError`` when the state could not be read or written;
    ///   ``InvalidApplicationIdentifierError`` when the app id cannot name its folder.
    func writeStateInOrder() async throws {
        await drain()
        await settleSaves()
        if let stateProblem { throw stateProblem }
    }

    /// Writes a waiting save now; off the actor, waits for the save under way first and
    /// writes what it left, until no change is left unwritten.
    func settleSaves() async {
        guard savesOffActor else { return flushWaitingSave() }
        while true {
            if let saveUnderWay {
                await saveUnderWay.value
                continue
            }
            guard saveTiming.writeWaiting || saveFollows else { return }
            saveFollows = false
            startSave()
        }
    }

    /// Writes the state at once, on the actor, merged under the lock with what other processes
    /// of the app wrote since this center last read or wrote it
    /// (``EngineState/merged(over:since:)``). Nothing is written before the state was read
    /// once: a file that could not be read is never replaced.
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
        recordWrite(Result { try EngineState.write(ours, to: store, since: baseline, unchangedSince: savedStamp) }, of: ours)
    }

    /// Starts a save whose file work runs off the actor (``saveOffActor(started:)``); while
    /// one is under way, has another follow it instead: one save at a time, the next one with
    /// the state as it is when it starts.
    func startSave() {
        guard store != nil else { return }
        guard saveUnderWay == nil else {
            saveFollows = true
            return
        }
        let started = ContinuousClock.now
        saveTiming.writeStarted(at: started)
        saveUnderWay = Task { await self.saveOffActor(started: started) }
    }

    /// ``saveNow()``'s save with its blocking part off the actor: the state, the baseline and
    /// the stamp are taken here, on the actor; the lock, the read, the merge, the write and
    /// its `fsync`s run on a thread of their own (``StateFileThread``), the actor taking
    /// inputs meanwhile; the outcome is recorded here again. A change made meanwhile is
    /// saved next: at once when its interval has passed already, else as ``scheduleSave()``
    /// decides.
    private func saveOffActor(started: ContinuousClock.Instant) async {
        await restoreOffActor()
        if let store, let baseline = savedBaseline {
            let ours = snapshot()
            let stamp = savedStamp
            let written = await StateFileThread.run {
                Result { try EngineState.write(ours, to: store, since: baseline, unchangedSince: stamp) }
            }
            recordWrite(written, of: ours)
        }
        saveTiming.writeEnded(after: ContinuousClock.now - started)
        saveUnderWay = nil
        guard saveFollows else { return }
        saveFollows = false
        if saveTiming.writeWaiting { startSave() } else { scheduleSave() }
    }

    /// Records the outcome of a write of `ours`: the baseline of the next merge and the
    /// file's stamp, or the problem (logged; the next save tries again, reading the file).
    private func recordWrite(_ written: Result<StateFileStamp?, any Error>, of ours: EngineState) {
        switch written {
        case .success(let stamp):
            savedStamp = stamp
            savedBaseline = ours
            stateProblem = nil
        case .failure(let error):
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
