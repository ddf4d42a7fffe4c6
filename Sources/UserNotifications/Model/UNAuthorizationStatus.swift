/// Whether the app may schedule and show notifications. Raw values are Apple's.
public enum UNAuthorizationStatus: Int, Sendable, BitwiseCopyable {
    /// The app has not asked yet.
    case notDetermined = 0

    /// The user, or on Linux the desktop's per-app switch, turned notifications off.
    case denied = 1

    /// The app may post notifications.
    case authorized = 2

    /// The app may post quiet notifications without having asked. Not produced on Linux.
    case provisional = 3

    /// The app may post notifications for a limited time (App Clips). Not produced on Linux.
    case ephemeral = 4
}
