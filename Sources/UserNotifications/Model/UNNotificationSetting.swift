/// Whether one notification feature is available to the app. Raw values are Apple's.
///
/// On Linux a feature the notification server does not advertise, or a concept the desktop
/// does not have, is `.notSupported`.
public enum UNNotificationSetting: Int, Sendable, BitwiseCopyable {
    /// The feature does not exist here.
    case notSupported = 0

    /// The feature exists but is turned off.
    case disabled = 1

    /// The feature exists and is turned on.
    case enabled = 2
}
