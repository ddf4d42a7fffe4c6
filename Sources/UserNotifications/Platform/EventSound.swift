import FreedesktopNotifications

/// A notification's sound that this process plays itself (``EventSoundPlayer``), because the
/// notification server it was posted to plays none: dunst, mako and xfce4-notifyd advertise no
/// `sound` capability and ignore the `sound-name` and `sound-file` hints, where GNOME Shell
/// plays them; GNOME Shell plays nothing for `org.gtk.Notifications` (its notifications have
/// no sound key), nor does the portal before version 2.
///
/// Decided from the `Notify` arguments the bridge made (``NotificationBridge``), so that the
/// sound played here is exactly the one a server with `sound` would have played: nothing when
/// they ask for silence (`suppress-sound`: no sound, options without `.sound`, a passive
/// request), the theme name of `sound-name` (`message-new-instant` for `.default`), or the file
/// of `sound-file`.
enum EventSound: Sendable, Hashable {
    /// A sound of the XDG sound theme (libcanberra's `event.id`).
    case themed(String)
    /// A sound file (libcanberra's `media.filename`).
    case file(String)

    /// The sound of `content` shown with `options`, for a service that plays none (GNOME's
    /// `org.gtk.Notifications`, the portal before version 2): the one a `Notify` of the same
    /// content would carry (``NotificationBridge/applySound(of:options:to:)``); `nil` when none
    /// is asked for.
    init?(content: UNNotificationContent, options: UNNotificationPresentationOptions) {
        var hints = NotificationHints()
        NotificationBridge.applySound(of: content, options: options, to: &hints)
        self.init(hints: hints, capabilities: [])
    }

    /// The sound to play for a `Notify` with `hints` sent to a server with `capabilities`;
    /// `nil` when the server plays it itself or the hints ask for none.
    init?(hints: NotificationHints, capabilities: Set<NotificationCapability>) {
        guard !capabilities.contains(.sound), hints.suppressSound != true else { return nil }
        if let file = hints.soundFile, !file.isEmpty {
            self = .file(file)
        } else if let name = hints.soundName, !name.isEmpty {
            self = .themed(name)
        } else {
            return nil
        }
    }
}
