/// How notifications of a category are handled.
///
/// Raw values are Apple's. Only `.customDismissAction` has a Linux meaning; the others are
/// kept on the model for code written for Apple.
public struct UNNotificationCategoryOptions: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Report the user's dismissal to the delegate as a response whose action identifier is
    /// `UNNotificationDismissActionIdentifier`. On Linux that is a close by the user (reason 2).
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)

    /// Allow these notifications in CarPlay. No effect on Linux.
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)

    /// Show the title even when the user hides previews. No effect on Linux.
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)

    /// Show the subtitle even when the user hides previews. No effect on Linux.
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)

    /// Allow Siri to announce these notifications. Deprecated by Apple in iOS 15; no effect on Linux.
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}
