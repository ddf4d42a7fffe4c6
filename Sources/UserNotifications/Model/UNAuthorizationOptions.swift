/// The kinds of interaction an app asks the user to allow when it requests authorization.
///
/// Raw values are Apple's. On Linux every option is accepted and remembered with the answer;
/// only `.alert`, `.sound` and `.badge` change what reaches the desktop. The others have no
/// freedesktop counterpart and are kept so that code written for Apple compiles and behaves
/// the same where it can.
public struct UNAuthorizationOptions: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Permission to set the count shown on the app's icon (the Unity launcher entry on Linux).
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)

    /// Permission to play a sound with a notification.
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)

    /// Permission to show notifications on screen.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)

    /// Permission to show notifications in a car. There is no car display on Linux: ignored.
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)

    /// Permission for critical alerts, which Apple lets through Do Not Disturb and the mute switch.
    /// Remembered on Linux, with no effect of its own; see ``UNNotificationInterruptionLevel`` for
    /// how critical content is sent.
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)

    /// Tells the system that the app shows its own notification settings screen. Ignored on Linux.
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)

    /// Permission to deliver quietly without asking the user first. Remembered on Linux, with no
    /// effect of its own: no one is asked there.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)

    /// Permission for Siri to read notifications aloud. Deprecated by Apple in iOS 15 (always
    /// granted there); ignored on Linux.
    public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)

    /// Permission for time-sensitive delivery. Deprecated by Apple in iOS 15 in favour of an
    /// entitlement; ignored on Linux, where time-sensitive content is sent with normal urgency.
    public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)
}
