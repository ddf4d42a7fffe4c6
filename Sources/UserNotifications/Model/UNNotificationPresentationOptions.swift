/// How to present a notification that arrives while the app is running.
///
/// Raw values are Apple's. On Linux the app always counts as running in the foreground, so the
/// center asks for these options before every delivery. `[]` means the notification is not
/// posted at all.
public struct UNNotificationPresentationOptions: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Update the app's badge count.
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)

    /// Play the notification's sound. Without it the sound is suppressed.
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)

    /// Show the notification as an alert. Deprecated by Apple in iOS 14 in favour of
    /// `[.banner, .list]`, which is exactly what it means on Linux.
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)

    /// Keep the notification in the notification list after it appears.
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)

    /// Show the notification on screen. A banner without `.list` is sent as transient.
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

extension UNNotificationPresentationOptions {
    /// Whether the notification appears on screen; the deprecated `.alert` counts.
    var showsBanner: Bool {
        contains(.banner) || contains(.alert)
    }

    /// Whether the notification stays in the list; the deprecated `.alert` counts.
    var showsInList: Bool {
        contains(.list) || contains(.alert)
    }
}
