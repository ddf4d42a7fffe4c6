/// A notification the GNOME engine added in this launch and has not seen withdrawn or
/// answered.
struct GnomeDelivered: SelfKeptDelivered {
    var notification: UNNotification
}
