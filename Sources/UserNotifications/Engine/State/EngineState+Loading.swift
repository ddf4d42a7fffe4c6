import DesktopNotificationsSupport
import Foundation
import Logging

extension EngineState {
    /// The center's state file in `folder`: `notifications.json`.
    package static func file(in folder: URL) -> StateFile<EngineState> {
        StateFile(folder: folder, name: "notifications")
    }

    /// The objects a center rebuilds from this state at start-up (`NotificationEngine.restore()`
    /// builds them one by one, with the same calls, after leaving out what cannot be honoured),
    /// for the fuzz harness, which feeds damaged files through the real loading path:
    /// ``file(in:)``'s `load()`, then this. What is left out is not logged here (the engine
    /// logs it at restore; the harness runs thousands of cases a second).
    package func makeObjects() -> (categories: [UNNotificationCategory], pending: [UNNotificationRequest], delivered: [UNNotification]) {
        let kept = leavingOutWhatCannotBeHonoured(logger: Logger(label: SubsystemLog.center.logger.label) { _ in SwiftLogNoOpLogHandler() })
        return (
            kept.categories.map { $0.makeCategory() }, kept.pending.map { $0.request.makeRequest() },
            kept.delivered.map { $0.notification.makeNotification() }
        )
    }
}
