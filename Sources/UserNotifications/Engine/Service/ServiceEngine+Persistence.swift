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
    ///
    /// Returns whether the file was read and taken in now.
    @discardableResult
    func restore() -> Bool {
        let restored = stateStore.restore { saved in
            state.withLock { state -> (rescheduled: [(String, Date)], trimmed: Int) in
                saved.adoptCategoriesAndAuthorization(into: &state.categories, &state.authorizationStatus, &state.authorizationOptions)
                var rescheduled: [(String, Date)] = []
                for pending in saved.pending where state.pending[pending.request.identifier] == nil {
                    let entry = PendingEntry(request: pending.request.makeRequest(), anchor: pending.anchor, nextFire: pending.nextFire)
                    if let trigger = entry.request.trigger as? UNLocationNotificationTrigger {
                        restoreWatch(entry, trigger: trigger, into: &state)
                        continue
                    }
                    state.pending.insert(entry)
                    state.ledger.hold(entry.request)
                    rescheduled.append((entry.identifier, entry.nextFire))
                }
                for entry in saved.delivered where entry.server == service.busName {
                    let notification = entry.notification.makeNotification()
                    guard state.delivered[notification.request.identifier] == nil else { continue }
                    state.delivered.record(ServiceDelivered(restoring: notification, nonce: entry.nonce, categories: state.categories))
                    state.ledger.hold(notification.request)
                }
                // A file written before the list was bounded (GNOME's, until d5ed40b) may hold more.
                let trimmed = state.delivered.trim(to: Self.maximumDelivered)
                for entry in trimmed { state.ledger.release(entry.notification.request) }
                return (rescheduled, trimmed.count)
            }
        }
        guard let restored else { return false }
        for (identifier, due) in restored.rescheduled { scheduler?.schedule(identifier, at: due) }
        if restored.trimmed > 0 {
            SubsystemLog.center.logger.info(
                "the saved delivered list held more than \(Self.maximumDelivered); the oldest left it",
                metadata: ["dropped": "\(restored.trimmed)"])
            stateChanged()
        }
        return true
    }

    /// Saves the change as ``SaveCoalescing`` decides: at once when nothing was written
    /// lately, so an app that adds one request and exits keeps it; else once at the end of
    /// the burst (or at ``flushSave()``, which ``close()`` and ``writeStateNow()`` call).
    func stateChanged() {
        SaveCoalescing.carryOut(stateStore.change(), write: {
            stateStore.writeStarted()
            write()
        }, flush: { self.flushSave() })
    }

    /// Writes a save that is still waiting for its burst to end, now.
    func flushSave() {
        guard stateStore.takeWaitingWrite() else { return }
        write()
    }

    /// Writes a waiting save now, then reports why the state is not saved, if it is not.
    ///
    /// - Throws: ``StateStoreError`` when the state could not be read or written;
    ///   ``InvalidApplicationIdentifierError`` when the app id cannot name its folder.
    func writeStateNow() async throws {
        flushSave()
        if let problem = stateStore.problem { throw problem }
    }

    /// Writes the state (``EngineStateStore/write(_:)``), reading the file first while it has
    /// not been read (the read at start failed), and writing nothing when it still cannot be.
    private func write() {
        restore()
        stateStore.write(snapshot)
    }

    /// What this engine keeps, as the state file holds it.
    private func snapshot() -> EngineState {
        state.withLock { state in
            var saved = EngineState(
                pending: state.pending, categories: state.categories, status: state.authorizationStatus, options: state.authorizationOptions)
            saved.delivered = state.delivered.all.compactMap { entry in
                EngineState.entry(of: entry.notification.request.identifier) {
                    EngineState.Delivered(
                        notification: try NotificationSnapshot(entry.notification), server: service.busName, id: 0, nonce: entry.actionNonce)
                }
            }
            return saved
        }
    }
}
