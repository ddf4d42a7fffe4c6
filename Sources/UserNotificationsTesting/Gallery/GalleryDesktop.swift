/// A desktop the gallery shows seed 000's notification on: each real notification server the
/// test kit runs, and the terminal presenter.
///
/// This is not an Apple type: the gallery is this package's own, a picture of what each Linux
/// desktop makes of one `UNNotificationRequest`.
public enum GalleryDesktop: String, CaseIterable, Sendable, Hashable {
    /// GNOME Shell 43, headless (``GnomeDesktop``), captured through the shell's own
    /// screenshot code, called by the harness's extension.
    case gnome
    /// Plasma 5's notification server on `kwin_wayland --virtual` (``PlasmaDesktop``),
    /// captured through KWin's `org.kde.KWin.ScreenShot2`.
    case plasma
    /// xfce4-notifyd under Xvfb (``XfceDesktop``), captured with `xwd -root`.
    case xfce
    /// mako on a headless sway (``MakoDesktop``), captured with `grim`.
    case mako
    /// dunst under Xvfb (``DunstDesktop``), captured with `xwd -root`.
    case dunst
    /// The terminal presenter (`TerminalPresenter`) that the library embeds where no server
    /// runs: its output shown in `xterm` under Xvfb, captured with `xwd -root`.
    case terminal

    /// The name shown in the gallery's index, for example "GNOME Shell 43".
    public var title: String {
        switch self {
        case .gnome: "GNOME Shell 43"
        case .plasma: "KDE Plasma 5"
        case .xfce: "xfce4-notifyd"
        case .mako: "mako"
        case .dunst: "dunst"
        case .terminal: "Terminal presenter"
        }
    }

    /// The picture's file name, for example `gnome.png`.
    public var fileName: String { "\(rawValue).png" }

    /// How the picture was taken, for the index.
    public var capturePath: String {
        switch self {
        case .gnome: "`Shell.Screenshot` inside the shell (the harness's extension, which also opens the banner), cropped to the banner's geometry"
        case .plasma: "`org.kde.KWin.ScreenShot2.CaptureWorkspace` on KWin's virtual output, cropped to what changed on the screen when the popup came"
        case .xfce: "`xwd -root` on Xvfb, cropped to the notification window's geometry (`xdotool`)"
        case .mako: "`grim` on headless sway (wlr-screencopy), trimmed to the notification against sway's plain background"
        case .dunst: "`xwd -root` on Xvfb, cropped to dunst's window geometry (`xdotool`)"
        case .terminal: "the presenter's output shown by `xterm` on Xvfb, `xwd -root`, cropped to the terminal window"
        }
    }

    /// What the desktop shows of the notification and what it leaves out, as seen in the
    /// pictures this package committed.
    public var notes: String {
        switch self {
        case .gnome:
            "Title, body and the image (as the notification's icon); no app name. The buttons show once the banner is "
                + "opened, as the pointer over it opens it (the picture shows it opened); the \"Input\" text action is a "
                + "plain button there: GNOME has no inline reply."
        case .plasma:
            "App name, title, body, the image (a thumbnail on the right), \"Goodbye\" and \"Cancel\", and the "
                + "\"Input\" text action as Plasma's inline reply: a button that opens a field with the placeholder "
                + "\"What do you want to say...\"."
        case .xfce:
            "Title, body and the image, and the three actions as buttons (\"Input\", \"Goodbye\", \"Cancel\"); no "
                + "reply field (xfce4-notifyd has no inline reply), no app name."
        case .mako:
            "Title, body and the image. No buttons: mako offers actions through `makoctl menu` or its bindings, not on "
                + "screen; no reply field, no app name."
        case .dunst:
            "Title, body and the image (as an icon); \"(A)\" before the title says that it has actions. No buttons: "
                + "dunst offers them through its context menu (`dunstctl context`); no reply field, no app name."
        case .terminal:
            "Everything, as text: app name and id, title, body, the image's location, \"Goodbye\" and \"Cancel\" as "
                + "numbered choices, and the \"Input\" text action as a reply typed after `>` (with its placeholder); "
                + "0 opens it, an empty line dismisses it."
        }
    }
}
