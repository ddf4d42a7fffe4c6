/// How notifications appear on screen. Raw values are Apple's.
public enum UNAlertStyle: Int, Sendable, BitwiseCopyable {
    /// Notifications are not shown on screen.
    case none = 0

    /// Notifications appear briefly and go away by themselves.
    case banner = 1

    /// Notifications stay until the user acts on them.
    case alert = 2
}
