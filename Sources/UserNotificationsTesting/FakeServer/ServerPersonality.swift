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
    /// Closes a notification with reason 1 (expired) once a positive `expire_timeout` (in
    /// milliseconds) has passed (xfce4-notifyd, mako, as observed here).
    public var honoursExpiry: Bool
    /// Whether invoking an action other than `default` closes the notification (reason 2).
    /// mako keeps it open: its actions are invoked through `makoctl`, not clicked; a click
    /// on a mako notification invokes `default` and closes it.
    public var closesAfterAction: Bool
    /// How many notifications one sender may have at once; a new one closes the oldest
    /// with reason 1 (GNOME Shell: three per source, as observed with 43).
    public var maximumPerSender: Int?
    /// What happens to a poster's notifications when its connection leaves the bus (the app
    /// exits): ``PosterDeparture/keep`` unless a personality says otherwise.
    public var posterDeparture: PosterDeparture
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
        /// An empty reply and `NotificationClosed(id, 3)` all the same (Plasma 5.27).
        case closedSignal
    }

    /// What a server does with the live notifications of a poster whose connection left the
    /// bus (`NameOwnerChanged` for its unique name with no new owner). Whatever it does, a
    /// click after that reaches no one: the poster is gone.
    public enum PosterDeparture: Sendable, Hashable {
        /// Nothing: they stay, with their actions (GNOME 43 as measured here; every personality
        /// but ``gnome46`` and ``kdeStripsActions``).
        case keep
        /// Closes those that matched an installed app, each with `NotificationClosed(id, 2)`
        /// (GNOME Shell 46). The shell matches by the sender's PID, the `desktop-entry` hint, or
        /// an `app_name` that names a desktop file; the fake server has no installed apps, so
        /// it counts a notification as matched when it carries a non-empty `desktop-entry`
        /// hint. The shell destroys the app's source without a reason, so each notification
        /// goes with its default reason, DISMISSED, sent as 2. The signal follows
        /// ``ServerPersonality/unicastSignals``: sent only to the poster, it reaches no one.
        case closeMatched
        /// Keeps them but removes their actions (Plasma): from then on the server refuses every
        /// gesture that needs an action, so invoking one or replying sends nothing, as Plasma's
        /// model refuses an action a notification no longer has.
        case stripActions
    }

    /// Creates a personality.
    public init(
        name: String, unicastSignals: Bool, unknownReplacement: UnknownReplacement, unknownClose: UnknownClose,
        closesRightAway: Bool = false, honoursExpiry: Bool = false, closesAfterAction: Bool = true,
        maximumPerSender: Int? = nil, posterDeparture: PosterDeparture = .keep,
        capabilities: [NotificationCapability], information: NotificationServerInformation
    ) {
        self.name = name
        self.unicastSignals = unicastSignals
        self.unknownReplacement = unknownReplacement
        self.unknownClose = unknownClose
        self.closesRightAway = closesRightAway
        self.honoursExpiry = honoursExpiry
        self.closesAfterAction = closesAfterAction
        self.maximumPerSender = maximumPerSender
        self.posterDeparture = posterDeparture
        self.capabilities = capabilities
        self.information = information
    }

    /// GNOME Shell: signals only to the poster; new ids for unknown replacements.
    public static let gnome = ServerPersonality(
        name: "gnome", unicastSignals: true, unknownReplacement: .newID, unknownClose: .ignore,
        capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"],
        information: NotificationServerInformation(name: "gnome-shell", vendor: "GNOME", version: "46.0", specVersion: "1.2"))

    /// GNOME Shell 43 (Debian 12), as observed headless: ``gnome`` with its version, and at
    /// most three notifications per source (a fourth closes the oldest with reason 1).
    public static let gnome43: ServerPersonality = {
        var personality = gnome
        personality.name = "gnome43"
        personality.maximumPerSender = 3
        personality.information.version = "43.9"
        return personality
    }()

    /// GNOME Shell 46, from its source: ``gnome43`` with its version, the same capabilities and
    /// three notifications per source (ten only from 48), and a poster that leaves the bus takes
    /// its app-matched notifications with it (``PosterDeparture/closeMatched``).
    public static let gnome46: ServerPersonality = {
        var personality = gnome43
        personality.name = "gnome46"
        personality.posterDeparture = .closeMatched
        personality.information.version = "46.0"
        return personality
    }()

    /// KDE Plasma: broadcast signals, inline reply, adopts requested ids.
    public static let kde = ServerPersonality(
        name: "kde", unicastSignals: false, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        capabilities: [
            "actions", "body", "body-hyperlinks", "body-images", "body-markup", "icon-static", "inline-reply",
            "persistence", "sound", "x-kde-display-appname", "x-kde-origin-name", "x-kde-urls",
        ],
        information: NotificationServerInformation(name: "Plasma", vendor: "KDE", version: "6.0", specVersion: "1.2"))

    /// KDE Plasma that removes a poster's actions when its connection leaves the bus
    /// (``PosterDeparture/stripActions``); otherwise ``kde``.
    public static let kdeStripsActions: ServerPersonality = {
        var personality = kde
        personality.name = "kde-strips-actions"
        personality.posterDeparture = .stripActions
        return personality
    }()

    /// KDE Plasma 5.27 (Debian 12), as observed headless: ``kde`` with its version and
    /// capabilities (`inhibitions`, no `sound`); honours `expire_timeout`; answers
    /// CloseNotification for an id it does not know with `NotificationClosed(id, 3)`.
    public static let plasma5: ServerPersonality = {
        var personality = kde
        personality.name = "plasma5"
        personality.unknownClose = .closedSignal
        personality.honoursExpiry = true
        personality.capabilities = [
            "body", "body-hyperlinks", "body-markup", "body-images", "icon-static", "actions", "persistence", "inline-reply",
            "x-kde-urls", "x-kde-origin-name", "x-kde-display-appname", "inhibitions",
        ]
        personality.information.version = "5.27.5"
        return personality
    }()

    /// dunst: signals only to the poster; adopts unknown replacement ids; no body markup.
    public static let dunst = ServerPersonality(
        name: "dunst", unicastSignals: true, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        capabilities: ["actions", "body", "body-hyperlinks", "icon-static", "synchronous", "x-dunst-stack-tag"],
        information: NotificationServerInformation(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2"))

    /// mako 1.7 (Debian 12), as observed on a headless sway: broadcast signals; new ids for
    /// unknown replacements; honours `expire_timeout`; an action invoked through `makoctl`
    /// leaves the notification open. Debian's build reports version `0.0.0`.
    public static let mako = ServerPersonality(
        name: "mako", unicastSignals: false, unknownReplacement: .newID, unknownClose: .ignore,
        honoursExpiry: true, closesAfterAction: false,
        capabilities: ["body", "body-markup", "actions", "icon-static", "x-canonical-private-synchronous", "x-dunst-stack-tag"],
        information: NotificationServerInformation(name: "mako", vendor: "emersion", version: "0.0.0", specVersion: "1.2"))

    /// xfce4-notifyd 0.7 (Debian 12), as observed under Xvfb: broadcast signals; adopts
    /// unknown replacement ids; honours `expire_timeout`; no `persistence`; a click on a
    /// button sends ActionInvoked then NotificationClosed(id, 2).
    public static let xfce = ServerPersonality(
        name: "xfce", unicastSignals: false, unknownReplacement: .adoptRequested, unknownClose: .ignore,
        honoursExpiry: true,
        capabilities: [
            "action-icons", "actions", "body", "body-hyperlinks", "body-markup", "icon-static", "x-canonical-private-icon-only",
        ],
        information: NotificationServerInformation(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", specVersion: "1.2"))

    /// xfce4-notifyd in do-not-disturb mode: ``xfce``, but every notification is closed with
    /// reason 4 right after the reply.
    public static let xfceDoNotDisturb: ServerPersonality = {
        var personality = xfce
        personality.name = "xfce-dnd"
        personality.closesRightAway = true
        return personality
    }()

    /// GNOME's old notification-daemon: broadcast; `InvalidId` for unknown closes.
    public static let notificationDaemon = ServerPersonality(
        name: "notification-daemon", unicastSignals: false, unknownReplacement: .newID, unknownClose: .invalidIDError,
        capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "sound", "persistence", "action-icons"],
        information: NotificationServerInformation(name: "Notification Daemon", vendor: "GNOME", version: "3.20.0", specVersion: "1.2"))
}
