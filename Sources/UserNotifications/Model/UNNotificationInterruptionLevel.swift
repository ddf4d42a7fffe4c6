/// How urgently a notification asks for the user's attention. Raw values are Apple's.
///
/// On Linux the level becomes the freedesktop `urgency` hint: `.passive` is low (0),
/// `.active` and `.timeSensitive` are normal (1), `.critical` is critical (2).
public enum UNNotificationInterruptionLevel: UInt, Sendable, BitwiseCopyable {
    /// Goes to the list quietly, without lighting the screen or playing a sound.
    case passive = 0

    /// Shown at once, may play a sound. The default.
    case active = 1

    /// Shown at once and may break through Focus on Apple platforms.
    case timeSensitive = 2

    /// Shown at once and always breaks through; Apple requires an entitlement for it.
    case critical = 3
}
