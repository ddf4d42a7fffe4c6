import DBus
import Foundation

/// The `AddNotification` vardict for a request, key by key (`mapping.md` has the
/// freedesktop rows this parallels). Pure: the same inputs give the same dictionary.
///
/// Version 1 keys: `title`, `body`, `icon` (a themed icon by name; a file or pixels need file
/// descriptor passing), `priority`, `default-action` and `buttons`. With version 2 keys
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
        var entries: [(String, DBusValue)] = [
            ("title", .string(content.title.isEmpty ? identity.displayName : content.title)),
            ("body", .string(plainBody(subtitle: content.subtitle, body: content.body))),
        ]
        if let icon = Self.themedIcon(identity.icon) { entries.append(("icon", icon)) }
        entries.append(("priority", .string(Self.priority(for: content.interruptionLevel))))
        entries.append(("default-action", .string(PortalInterface.defaultAction)))
        let (buttons, replyOffered) = self.buttons(for: category)
        if !buttons.isEmpty { entries.append(("buttons", .array(element: Self.vardictType, buttons))) }
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

    private static let vardictType = DBusType.dictionary(key: .string, value: .variant)

    private func plainBody(subtitle: String, body: String) -> String {
        subtitle.isEmpty ? body : body.isEmpty ? subtitle : subtitle + "\n" + body
    }

    /// A serialized `GThemedIcon` for an icon name; `nil` for none or for a file, which the
    /// portal takes only as a file descriptor.
    static func themedIcon(_ icon: String) -> DBusValue? {
        guard !icon.isEmpty, !icon.hasPrefix("/"), !icon.contains("://") else { return nil }
        return .structure([.string("themed"), .variant(.stringArray([icon]))])
    }

    static func priority(for level: UNNotificationInterruptionLevel) -> String {
        switch level {
        case .passive: "low"
        case .timeSensitive: "high"
        case .critical: "urgent"
        default: "normal"
        }
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
    private func buttons(for category: UNNotificationCategory?) -> ([DBusValue], Bool) {
        let replyAvailable = features.hasVersion2Keys && features.buttonPurposes.contains(PortalInterface.replyPurpose)
        var replyOffered = false
        var buttons: [DBusValue] = []
        for (index, action) in (category?.actions ?? []).enumerated() {
            var button: [(String, DBusValue)] = [
                ("label", .string(action.title)), ("action", .string(PortalInterface.actionName(at: index))),
            ]
            if action is UNTextInputNotificationAction, replyAvailable, !replyOffered {
                replyOffered = true
                button.append(("purpose", .string(PortalInterface.replyPurpose)))
            }
            buttons.append(.variantDictionary(button))
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
