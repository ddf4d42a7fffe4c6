import DBus
import Foundation

/// The `AddNotification` vardict for a request, key by key (`mapping.md` has the
/// freedesktop rows this parallels). Pure: the same inputs give the same dictionary.
///
/// Version 1 keys: `title`, `body`, `icon` (a themed icon by name; a file or pixels need file
/// descriptor passing), `priority`, `default-action` and `buttons`, built by
/// ``GNotificationPayload``, which the GNOME engine shares. With version 2 keys
/// (``PortalFeatures/hasVersion2Keys``): `markup-body`, `sound` (`default` or `silent`),
/// `display-hint`, and, where the server advertises them, `category` and the reply button's
/// `purpose`.
struct PortalPayload {
    let identity: ApplicationIdentity
    let features: PortalFeatures

    /// The dictionary's entries for `request` shown with `options`; `replacing` says the
    /// identifier is shown now (its update is presented as new, as Apple presents it again).
    func entries(
        for request: UNNotificationRequest, category: UNNotificationCategory?, options: UNNotificationPresentationOptions,
        replacing: Bool
    ) -> [(String, DBusValue)] {
        let content = request.content
        let (buttons, replyOffered) = self.buttons(for: category)
        var payload = GNotificationPayload(content, identity: identity)
        payload.defaultAction = PortalInterface.defaultAction
        payload.buttons = buttons
        var entries = payload.entries
        guard features.hasVersion2Keys else { return entries }
        let markup = NotificationBridge(identity: identity, capabilities: [.bodyMarkup])
        entries.append(("markup-body", .string(markup.body(subtitle: content.subtitle, body: content.body))))
        entries.append(("sound", .string(content.sound != nil && options.contains(.sound) ? "default" : "silent")))
        let hints = Self.displayHints(options: options, replacing: replacing)
        if !hints.isEmpty { entries.append(("display-hint", .stringArray(hints))) }
        if let portalCategory = portalCategory(for: content.categoryIdentifier, replyOffered: replyOffered) {
            entries.append(("category", .string(portalCategory)))
        }
        return entries
    }

    /// `transient` for a banner that stays out of the list, `tray` for the list alone, and
    /// `show-as-new` for an update of a notification shown now.
    static func displayHints(options: UNNotificationPresentationOptions, replacing: Bool) -> [String] {
        var hints: [String] = []
        if options.showsBanner, !options.showsInList { hints.append("transient") }
        if options.showsInList, !options.showsBanner { hints.append("tray") }
        if replacing { hints.append("show-as-new") }
        return hints
    }

    /// One button per action; the first text-input action gets the reply purpose where the
    /// server advertises it (version 2). Returns whether a reply button was offered.
    private func buttons(for category: UNNotificationCategory?) -> ([GNotificationPayload.Button], Bool) {
        let replyAvailable = features.hasVersion2Keys && features.buttonPurposes.contains(PortalInterface.replyPurpose)
        var replyOffered = false
        var buttons: [GNotificationPayload.Button] = []
        for (index, action) in (category?.actions ?? []).enumerated() {
            var button = GNotificationPayload.Button(label: action.title, action: PortalInterface.actionName(at: index))
            if action is UNTextInputNotificationAction, replyAvailable, !replyOffered {
                replyOffered = true
                button.extra.append(("purpose", .string(PortalInterface.replyPurpose)))
            }
            buttons.append(button)
        }
        return (buttons, replyOffered)
    }

    /// The category sent (version 2, advertised values only): the app's category identifier
    /// when it is one the server lists, else an instant-message category for a notification
    /// with a reply button.
    private func portalCategory(for identifier: String, replyOffered: Bool) -> String? {
        if features.categories.contains(identifier) { return identifier }
        guard replyOffered else { return nil }
        return PortalInterface.messageCategories.first(where: features.categories.contains)
    }
}
