import DBus
import DesktopNotificationsSupport
import Foundation

extension UNUserNotificationCenter {
    /// The desktop's Do Not Disturb switch, as the notification server that runs keeps it
    /// (``DoNotDisturbSource``).
    ///
    /// A Linux addition: Apple platforms tell an app nothing of the person's Focus beyond
    /// what its notifications' delivery shows. Unknown (`isOn == nil`) when no server runs, the
    /// server has no switch the center knows, or the switch did not answer (logged).
    public func doNotDisturb() async -> DoNotDisturbStatus {
        do {
            let connection = try await DBusConnection.connect(to: bus.dbusBus)
            let status = await DoNotDisturbReader.read(on: connection)
            await connection.close()
            return status
        } catch {
            SubsystemLog.center.logger.error("no bus to read Do Not Disturb on", metadata: ["error": SubsystemLog.describe(error)])
            return DoNotDisturbStatus(isOn: nil, source: .noServer)
        }
    }

    /// The Do Not Disturb status now, then each change, read every `interval` (at least 100 ms)
    /// on one bus connection held while the sequence is iterated; it ends when the iteration
    /// is cancelled.
    ///
    /// A Linux addition. The servers' switches have no common change signal (GSettings,
    /// xfconf, and mako change them without one on the notification interface), so the
    /// sequence asks the switch again at each interval: one D-Bus round trip, or one GSettings
    /// read on GNOME.
    public func doNotDisturbUpdates(every interval: Duration = .seconds(1)) -> AsyncStream<DoNotDisturbStatus> {
        let bus = bus.dbusBus
        let interval = max(interval, .milliseconds(100))
        return AsyncStream { continuation in
            let task = Task {
                let connection: DBusConnection
                do {
                    connection = try await DBusConnection.connect(to: bus)
                } catch {
                    SubsystemLog.center.logger.error("no bus to read Do Not Disturb on", metadata: ["error": SubsystemLog.describe(error)])
                    continuation.yield(DoNotDisturbStatus(isOn: nil, source: .noServer))
                    continuation.finish()
                    return
                }
                var last: DoNotDisturbStatus?
                while !Task.isCancelled {
                    let status = await DoNotDisturbReader.read(on: connection)
                    if status != last {
                        continuation.yield(status)
                        last = status
                    }
                    do { try await Task.sleep(for: interval) } catch { break }
                }
                await connection.close()
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
