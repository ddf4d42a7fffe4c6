import Foundation

extension EngineState {
    /// The center's state file in `folder`: `notifications.json`.
    package static func file(in folder: URL) -> StateFile<EngineState> {
        StateFile(folder: folder, name: "notifications")
    }

    /// The objects a center rebuilds from this state at start-up (`NotificationEngine.restore()`
    /// builds them one by one, with the same calls), for the fuzz harness, which feeds damaged
    /// files through the real loading path: ``file(in:)``'s `load()`, then this.
    package func makeObjects() -> (categories: [UNNotificationCategory], pending: [UNNotificationRequest], delivered: [UNNotification]) {
        (categories.map { $0.makeCategory() }, pending.map { $0.request.makeRequest() }, delivered.map { $0.notification.makeNotification() })
    }
}
