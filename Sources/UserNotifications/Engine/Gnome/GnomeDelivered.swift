/// A notification the GNOME engine added and has not seen withdrawn or answered: GNOME
/// cannot list what it shows, so this is the engine's own record (kept in the app's state file
/// across launches, as GNOME keeps the notification).
struct GnomeDelivered: SelfKeptDelivered {
    var notification: UNNotification

    init(notification: UNNotification) {
        self.notification = notification
    }

    /// The record of `notification` read back from the state file.
    init(restoring notification: UNNotification, categories: [String: UNNotificationCategory]) {
        self.init(notification: notification)
    }
}
