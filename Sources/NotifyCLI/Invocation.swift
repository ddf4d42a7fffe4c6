import Foundation

/// How `notify` was started: as itself, or through a `notify-send` link (the README's symlink,
/// or `make install NOTIFY_SEND_LINK=1`).
///
/// libnotify's `notify-send` registers itself as `notify-send` (`notify_init`): that is the
/// `app_name` of its notifications when `-a` is not given, and the middle of the ids it gives
/// the notification portal. Started under that name, `notify` does the same; started as
/// `notify`, it keeps its own name.
package enum Invocation {
    /// The name libnotify's tool registers.
    package static let notifySendName = "notify-send"

    /// The last component of the path the program was started by (`argv[0]`).
    package static let programName: String = {
        let path = CommandLine.arguments.first ?? "notify"
        return path.split(separator: "/").last.map(String.init) ?? "notify"
    }()

    /// The application name of a notification without `-a`: `notify-send` when started as
    /// `notify-send`, otherwise `notify`.
    package static var defaultAppName: String {
        programName == notifySendName ? notifySendName : "notify"
    }
}
