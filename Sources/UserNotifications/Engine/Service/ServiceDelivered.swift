/// A notification a ``ServiceEngine`` showed and has not seen withdrawn or answered: the
/// service cannot list what it shows, so this is the engine's own record, kept in the app's
/// state file across launches.
struct ServiceDelivered: Sendable {
    var notification: UNNotification
    /// The category's action identifiers in button order, as shown: a service's button `n` is
    /// the `n`th (``ServiceClick/Action/button(_:)``).
    var actionIdentifiers: [String]
    /// The text-input actions among them: a click on one is a
    /// ``UNTextInputNotificationResponse``.
    var textInputIdentifiers: Set<String>
    /// The nonce its action targets carry (``PortalResponseID``); `nil` when they carry none,
    /// and then a click that names a nonce is not taken for it.
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

    /// The action identifier `action` stands for on this notification, or `nil` when it has no
    /// such button.
    func actionIdentifier(_ action: ServiceClick.Action) -> String? {
        switch action {
        case .defaultAction: UNNotificationDefaultActionIdentifier
        case .button(let index): actionIdentifiers.indices.contains(index) ? actionIdentifiers[index] : nil
        case .named(let identifier): identifier
        }
    }
}
