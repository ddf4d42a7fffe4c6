public import FreedesktopNotifications

/// How a real notification server behaves, as the field notes record it; the fake server
/// plays one at a time.
public struct ServerPersonality: Sendable, Hashable {
    /// A short name for messages.
    public var name: String
    /// Signals go only to the connection that posted (`true`) or to everyone.
    public var unicastSignals: Bool
    /// What `replaces_id` for an id that is not live does.
    public var unknownReplacement: UnknownReplacement
    /// What `CloseNotification` for an id that is not live does.
    public var unknownClose: UnknownClose
    /// Sends `NotificationClosed(id, 4)` right after replying to each Notify (xfce's
    /// do-not-disturb mode).
    public var closesRightAway: Bool
    /// What `GetCapabilities` answers.
    public var capabilities: [NotificationCapability]
    /// What `GetServerInformation` answers.
    public var information: NotificationServerInformation

    /// What a server does with a `replaces_id` it does not know.
    public enum UnknownReplacement: Sendable, Hashable {
        /// Assigns a fresh id (GNOME, mako, notification-daemon).
        case newID
        /// Takes the requested id (KDE, dunst, xfce).
        case adoptRequested
    }

    /// What a server does with `CloseNotification` for an id it does not know.
    public enum UnknownClose: Sendable, Hashable {
        /// An empty reply (dunst, KDE).
        case ignore
        /// The error `org.freedesktop.Notifications.InvalidId` (notification-daemon).
        case invalidIDError
    }

    /// Creates a personality.
    public init(
        name: String, unicastSignals: Bool, unknownReplacement: UnknownReplacement, unknownClose: UnknownClose,
        closesRightAway: Bool = false, capabilities: [NotificationCapability], information: NotificationServerInformation
    ) {
        self.name = name
        self.unicastSignals = unicastSignals
        self.unknownReplacement = unknownReplacement
        self.unknownClose = unknownClose
        self.closesRightAway = closesRightAway
        self.capabilities = capabilities
        self.information = information
    }

    /// GNOME Shell: signals only to the poster; new ids for unknown replacements.
    public static let gnome = ServerPersonality(
        name: "gnome", unicastSignals: true, unknownReplacement: .newID, unknownClose: .ignore,
        capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"],
        information: NotificationServerInformation(name: "gnome-shell", vendor: "GNOME", version: "46.0", specVersion: "1.2"))

    /// KDE Plasma: broadcast signals, inline reply, adopts requested ids.
    public static let kde = ServerPersonality(
        name: "kde", unicastSignals: false, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        capabilities: [
            "actions", "body", "body-hyperlinks", "body-images", "body-markup", "icon-static", "inline-reply",
            "persistence", "sound", "x-kde-display-appname", "x-kde-origin-name", "x-kde-urls",
        ],
        information: NotificationServerInformation(name: "Plasma", vendor: "KDE", version: "6.0", specVersion: "1.2"))

    /// dunst: signals only to the poster; adopts unknown replacement ids; no body markup.
    public static let dunst = ServerPersonality(
        name: "dunst", unicastSignals: true, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        capabilities: ["actions", "body", "body-hyperlinks", "icon-static", "synchronous", "x-dunst-stack-tag"],
        information: NotificationServerInformation(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2"))

    /// mako: broadcast signals; new ids for unknown replacements.
    public static let mako = ServerPersonality(
        name: "mako", unicastSignals: false, unknownReplacement: .newID, unknownClose: .ignore,
        capabilities: ["actions", "body", "body-markup", "icon-static"],
        information: NotificationServerInformation(name: "mako", vendor: "emersion", version: "1.9.0", specVersion: "1.2"))

    /// xfce4-notifyd in do-not-disturb mode: broadcast; closes every notification with reason
    /// 4 right after replying.
    public static let xfceDoNotDisturb = ServerPersonality(
        name: "xfce", unicastSignals: false, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        closesRightAway: true, capabilities: ["actions", "body", "body-markup", "icon-static", "persistence"],
        information: NotificationServerInformation(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.9.4", specVersion: "1.2"))

    /// GNOME's old notification-daemon: broadcast; `InvalidId` for unknown closes.
    public static let notificationDaemon = ServerPersonality(
        name: "notification-daemon", unicastSignals: false, unknownReplacement: .newID, unknownClose: .invalidIDError,
        capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "sound", "persistence", "action-icons"],
        information: NotificationServerInformation(name: "Notification Daemon", vendor: "GNOME", version: "3.20.0", specVersion: "1.2"))
}
