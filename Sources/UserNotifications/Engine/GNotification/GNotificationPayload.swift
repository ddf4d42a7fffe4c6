import DBus

/// The notification dictionary GLib's `GNotification` serializes, which both GNOME's
/// `org.gtk.Notifications` and version 1 of the notification portal take: `title`, `body`,
/// `icon` (a serialized `GIcon`), `priority` (`low`, `normal`, `high`, `urgent`),
/// `default-action` with its `default-action-target`, and `buttons` (`aa{sv}`: `label`,
/// `action`, `target`, and any further keys a button carries). The portal engine
/// (``PortalPayload``) and the GNOME engine (``GnomePayload``) build their dictionaries on it,
/// each with its own action names. Pure: the same inputs give the same entries.
struct GNotificationPayload {
    /// One entry of `buttons`.
    struct Button {
        var label: String
        var action: String
        /// The action's target, sent as `target` (an action without one gets none).
        var target: DBusValue?
        /// Keys after `label`, `action` and `target` (the portal's `purpose`).
        var extra: [(String, DBusValue)] = []
    }

    var title: String
    var body: String
    /// A serialized `GIcon` (``themedIcon(_:)``, ``bytesIcon(_:)``), or `nil` for none.
    var icon: DBusValue?
    var priority: String
    var defaultAction: String?
    var defaultActionTarget: DBusValue?
    var buttons: [Button] = []

    /// The title, plain body (subtitle and body on two lines), themed icon and priority of
    /// `content` for the app `identity`; an empty title becomes the app's name, as a
    /// notification without a title shows none.
    init(_ content: UNNotificationContent, identity: ApplicationIdentity) {
        title = content.title.isEmpty ? identity.displayName : content.title
        body = Self.plainBody(subtitle: content.subtitle, body: content.body)
        icon = Self.themedIcon(identity.icon)
        priority = Self.priority(for: content.interruptionLevel)
    }

    /// The dictionary's entries in GNotification's order.
    var entries: [(String, DBusValue)] {
        var entries: [(String, DBusValue)] = [("title", .string(title)), ("body", .string(body))]
        if let icon { entries.append(("icon", icon)) }
        entries.append(("priority", .string(priority)))
        if let defaultAction {
            entries.append(("default-action", .string(defaultAction)))
            if let defaultActionTarget { entries.append(("default-action-target", defaultActionTarget)) }
        }
        if !buttons.isEmpty {
            let values = buttons.map { button -> DBusValue in
                var fields: [(String, DBusValue)] = [("label", .string(button.label)), ("action", .string(button.action))]
                if let target = button.target { fields.append(("target", target)) }
                return .variantDictionary(fields + button.extra)
            }
            entries.append(("buttons", .array(element: Self.vardictType, values)))
        }
        return entries
    }

    static let vardictType = DBusType.dictionary(key: .string, value: .variant)

    /// The subtitle and the body on lines of their own, either alone when the other is empty.
    static func plainBody(subtitle: String, body: String) -> String {
        subtitle.isEmpty ? body : body.isEmpty ? subtitle : subtitle + "\n" + body
    }

    /// A serialized `GThemedIcon` for an icon name; `nil` for none or for a file, which the
    /// portal takes only as a file descriptor and GNOME only from a desktop entry.
    static func themedIcon(_ icon: String) -> DBusValue? {
        guard !icon.isEmpty, !icon.hasPrefix("/"), !icon.contains("://") else { return nil }
        return .structure([.string("themed"), .variant(.stringArray([icon]))])
    }

    /// A serialized `GBytesIcon`: the bytes of an image file (PNG, JPEG …), which GLib's
    /// `g_icon_deserialize` reads as `("bytes", <ay>)`.
    static func bytesIcon(_ bytes: [UInt8]) -> DBusValue {
        .structure([.string("bytes"), .variant(.byteArray(bytes))])
    }

    /// GNotification's priority for an interruption level.
    static func priority(for level: UNNotificationInterruptionLevel) -> String {
        switch level {
        case .passive: "low"
        case .timeSensitive: "high"
        case .critical: "urgent"
        default: "normal"
        }
    }
}
