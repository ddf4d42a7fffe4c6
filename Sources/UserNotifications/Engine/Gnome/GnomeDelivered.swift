/// A notification the GNOME engine added and has not seen withdrawn or answered: GNOME
/// cannot list what it shows, so this is the engine's own record (kept in the app's state file
/// across launches, as GNOME keeps the notification).
struct GnomeDelivered: SelfKeptDelivered {
    var notification: UNNotification

    init(notification: UNNotification) {
        self.notification = notification
    }

    /// GNOME's targets are the responses themselves, taken from GNOME Shell only: no nonce.
    var actionNonce: String? { nil }

    /// The record of `notification` read back from the state file.
    init(restoring notification: UNNotification, nonce: String?, categories: [String: UNNotificationCategory]) {
        self.init(notification: notification)
    }
}
