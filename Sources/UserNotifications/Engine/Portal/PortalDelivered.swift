/// A notification the portal engine added and has not seen withdrawn or answered: the portal
/// cannot list what its server shows, so this is the engine's own record (kept in the app's
/// state file across launches).
struct PortalDelivered: SelfKeptDelivered {
    var notification: UNNotification
    /// The category's action identifiers in button order: `action.n` is the `n`th.
    var actionIdentifiers: [String]
    /// The text-input actions among them.
    var textInputIdentifiers: Set<String>
    /// The nonce its `app.*` action targets carry (``PortalResponseID``); `nil` when its
    /// actions came back as `ActionInvoked` only (the app did not serve
    /// `org.freedesktop.Application`), and then no target is taken for it.
    var actionNonce: String?

    var identifier: String { notification.request.identifier }

    /// The record of `notification` shown with the buttons of `actions`, its targets carrying
    /// `nonce`.
    init(notification: UNNotification, actions: [UNNotificationAction], nonce: String?) {
        self.notification = notification
        actionIdentifiers = actions.map(\.identifier)
        textInputIdentifiers = Set(actions.filter { $0 is UNTextInputNotificationAction }.map(\.identifier))
        actionNonce = nonce
    }

    /// The record of `notification` read back from the state file, with its saved `nonce`:
    /// its buttons are those of its category in `categories`.
    init(restoring notification: UNNotification, nonce: String?, categories: [String: UNNotificationCategory]) {
        self.init(
            notification: notification, actions: categories[notification.request.content.categoryIdentifier]?.actions ?? [], nonce: nonce)
    }
}
