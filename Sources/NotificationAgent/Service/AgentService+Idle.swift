import DBus
import Foundation
import FreedesktopNotifications
import UserNotifications

extension AgentService {
    /// Calls `idle` once the agent has held nothing that needs it for `period`: no shown
    /// notification (a click on its body must reach the app, and GNOME Shell 46+ would close it
    /// if the agent left the bus), no connected app,
    /// and no pending request, or, when `waiting` is true, only pending requests that wait for
    /// a time more than one `period` ahead (``AgentIdleEnd/waitsUntil(_:)``: the agent's
    /// process may then sleep in its place until the soonest is due).
    ///
    /// Queued responses do not keep it: they are in the app's saved state, and the app that
    /// takes them (relaunched, or started by hand) starts the agent again through the bus (its
    /// service file), which reads them back; an app that is never started (one without a
    /// desktop entry, such as `notify`'s own) would otherwise keep the agent up until its
    /// responses expire.
    ///
    /// Signs of work set the one idle timer again: every call to the agent, a connected app
    /// leaving the bus, a delivery, a response, a `NotificationClosed` or `ActionInvoked`
    /// signal on the bus, and a save of any app's state (a close that a server sends to the
    /// app's own engine alone, as GNOME Shell does, is heard there). The timer is checked when it rings; while the agent holds something,
    /// it stays unset until the next sign of work, so nothing wakes the agent while it waits.
    ///
    /// - Throws: `DBusError` when the signals cannot be subscribed to.
    public func exitWhenIdle(
        after period: Duration, waiting: Bool = true, _ idle: @escaping @Sendable (AgentIdleEnd) -> Void
    ) async throws {
        let watch = AgentIdleWatch(period: period, check: { [weak self] in await self?.idleEnd(period: period, waiting: waiting) }, idle: idle)
        idleWatch.withLock { $0 = watch }
        saves.onWrite { [weak self] in self?.touched() }
        let members: [NotificationsSpec.Signal] = [.notificationClosed, .actionInvoked]
        let rules = members.map { DBusMatchRule(interface: NotificationsSpec.name, member: $0.rawValue) }
        let signals = try await connection.subscribe(to: rules) { [weak self] _ in self?.touched() }
        idleSignals.withLock { $0 = signals }
    }

    /// A sign of work: the idle period counts again.
    func touched() {
        idleWatch.withLock { $0 }?.touch()
    }

    /// Stops the idle watch.
    func stopIdleWatch() {
        idleWatch.withLock { watch in
            watch?.cancel()
            watch = nil
        }
        idleSignals.withLock { signals in
            signals?.cancel()
            signals = nil
        }
    }

    /// Whether the agent may end now, and why; nil while an app needs it. Pending requests
    /// keep it unless `waiting` allows ``AgentIdleEnd/waitsUntil(_:)``.
    func idleEnd(period: Duration, waiting: Bool) async -> AgentIdleEnd? {
        var wake = PendingWake.nothing
        for app in apps.withLock({ Array($0.values) }) {
            guard app.host.center == nil else { return nil }
            wake = wake.combined(with: await app.engine.pendingWake())
            guard wake != .watching else { return nil }
            // Every shown notification can be clicked (its body is the `default` action), and
            // GNOME Shell 46 and later close a matched app's notifications when their sender
            // leaves the bus: the agent stays while anything it showed is on screen.
            let occupancy = await app.engine.occupancy(of: "")
            if occupancy.delivered > 0 || occupancy.underWay > 0 { return nil }
        }
        switch wake {
        case .nothing:
            return .holdsNothing
        case .at(let date) where waiting && Self.isDue(date, laterThan: period, from: Date()):
            return .waitsUntil(date)
        case .at, .watching:
            return nil
        }
    }

    /// Whether `date` is more than `period` after `now`. The dates come from the apps' saved
    /// requests, so they are compared as seconds, never made a `Duration` (which traps past
    /// about 1.7 × 10^20 seconds): a date at infinity is later than any period, one that is
    /// not a number is not.
    package static func isDue(_ date: Date, laterThan period: Duration, from now: Date) -> Bool {
        let (seconds, attoseconds) = period.components
        return date.timeIntervalSince(now) > Double(seconds) + Double(attoseconds) * 1e-18
    }
}
