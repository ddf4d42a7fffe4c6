/// How the system treats a notification action when the user picks it.
///
/// Raw values are Apple's. The freedesktop specification has no way to mark a button as
/// destructive or to demand an unlocked session, so on Linux `.destructive` and
/// `.authenticationRequired` are kept on the model but do not change what the desktop shows.
public struct UNNotificationActionOptions: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The action can only run once the user has unlocked the device. No effect on Linux.
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)

    /// The action deletes or discards something; Apple draws it in red. No effect on Linux.
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)

    /// The action brings the app to the foreground. On Linux the response carries the server's
    /// activation token, when it sent one, so the app can raise its window.
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}
