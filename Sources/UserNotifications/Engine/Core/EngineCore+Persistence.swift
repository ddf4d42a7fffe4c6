import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

extension EngineCore {
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
        if stateStore.restore(adopt: adopt) != nil { ledger.prune() }
    }

    /// ``restore()`` with the read (the lock, the file) on a thread of its own
    /// (``StateFileThread``), the actor taking inputs meanwhile; what was read is taken in on
    /// the actor. A read that another one finished first is dropped.
    func restoreOffActor() async {
        guard !stateStore.hasRead else { return }
        let stateStore = stateStore
        let read = await StateFileThread.run { stateStore.read() }
        if stateStore.take(read, adopt: adopt) != nil { ledger.prune() }
    }

    /// Takes in what `state` holds that the center does not have yet.
    private func adopt(_ state: EngineState) {
        state.adoptCategoriesAndAuthorization(into: &categories, &authorizationStatus, &authorizationOptions)
        for saved in state.pending where pending[saved.request.identifier] == nil {
            let request = saved.request.makeRequest()
            ledger.hold(request)
            if let trigger = request.trigger as? UNLocationNotificationTrigger {
                restoreWatch(request, trigger: trigger, anchor: saved.anchor)
                continue
            }
            pending.insert(PendingEntry(request: request, anchor: saved.anchor, nextFire: saved.nextFire))
            scheduler?.schedule(request.identifier, at: saved.nextFire)
        }
        owner = owner ?? transport.serverOwner
        for saved in state.delivered where saved.server == owner && delivered[saved.notification.request.identifier] == nil {
            let notification = saved.notification.makeNotification()
            ledger.hold(notification.request)
            delivered.record(DeliveredEntry(
                notification: notification, key: ServerKey(server: saved.server, id: transport.restoredID(saved.id)), nonce: saved.nonce))
        }
        // A file written before the list was bounded (GNOME's, until d5ed40b) may hold more.
        trimDelivered()
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
        SaveCoalescing.carryOut(
            stateStore.change(), write: { savesOffActor ? startSave() : saveNow() }, flush: { await self.flushWaitingSave() })
    }

    /// Writes (starts, off the actor) a save that is still waiting for its burst to end, now.
    func flushWaitingSave() {
        guard stateStore.writeWaiting else { return }
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
        if let problem = stateStore.problem { throw problem }
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
            guard stateStore.writeWaiting || saveFollows else { return }
            saveFollows = false
            startSave()
        }
    }

    /// Writes the state at once, on the actor (``EngineStateStore/write(_:)``), reading the
    /// file first while it has not been read: a file that could not be read is never replaced.
    func saveNow() {
        guard stateStore.file != nil else { return }
        stateStore.writeStarted()
        restore()
        stateStore.write(snapshot)
    }

    /// Starts a save whose file work runs off the actor (``saveOffActor()``); while one is
    /// under way, has another follow it instead: one save at a time, the next one with the
    /// state as it is when it starts.
    func startSave() {
        guard stateStore.file != nil else { return }
        guard saveUnderWay == nil else {
            saveFollows = true
            return
        }
        stateStore.writeStarted()
        saveUnderWay = Task { await self.saveOffActor() }
    }

    /// ``saveNow()``'s save with its blocking part off the actor: the state is taken here, on
    /// the actor; the lock, the read, the merge, the write and its `fsync`s run on a thread of
    /// their own (``StateFileThread``), the actor taking inputs meanwhile. A change made
    /// meanwhile is saved next: at once when its interval has passed already, else as
    /// ``scheduleSave()`` decides.
    private func saveOffActor() async {
        await restoreOffActor()
        if stateStore.hasRead {
            let (stateStore, ours) = (stateStore, snapshot())
            await StateFileThread.run { stateStore.write { ours } }
        }
        saveUnderWay = nil
        guard saveFollows else { return }
        saveFollows = false
        if stateStore.writeWaiting { startSave() } else { scheduleSave() }
    }

    func snapshot() -> EngineState {
        var state = EngineState(pending: pending, categories: categories, status: authorizationStatus, options: authorizationOptions)
        state.delivered = delivered.live.values.compactMap { entry in
            EngineState.entry(of: entry.identifier) {
                EngineState.Delivered(
                    notification: try NotificationSnapshot(entry.notification), server: entry.key.server, id: entry.key.id, nonce: entry.nonce)
            }
        }
        return state
    }
}
