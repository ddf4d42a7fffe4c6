/// The name of a sound file to play with a notification.
///
/// On Linux a name that is an absolute path to an existing file is played as that file
/// (`sound-file` hint); any other name is looked up in the desktop's sound theme
/// (`sound-name` hint), e.g. `"message-new-email"`.
///
/// Being expressible by a string literal is a Linux convenience; Apple's type needs
/// `UNNotificationSoundName("…")` or `UNNotificationSoundName(rawValue: "…")`.
public struct UNNotificationSoundName: Hashable, RawRepresentable, ExpressibleByStringLiteral, Sendable {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }
}
