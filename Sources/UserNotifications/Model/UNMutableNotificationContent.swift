/// Editable notification content, for building the content of a request.
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Time Interval Notification"
/// content.body = "My first notification"
/// content.sound = .default
/// ```
///
/// Each property means what it does on ``UNNotificationContent``. Not `Sendable`: share an
/// immutable `copy()` instead.
///
/// A `title`, `subtitle` or `body` set to a text that
/// `NSString.localizedUserNotificationString(forKey:arguments:)` returned is looked up again
/// when the notification is delivered, as on Apple platforms.
open class UNMutableNotificationContent: UNNotificationContent {
    open override var title: String {
        get { fields.title }
        set {
            fields.title = newValue
            fields.localizations.title = DeferredLocalizationTable.shared.localization(for: newValue)
        }
    }

    open override var subtitle: String {
        get { fields.subtitle }
        set {
            fields.subtitle = newValue
            fields.localizations.subtitle = DeferredLocalizationTable.shared.localization(for: newValue)
        }
    }

    open override var body: String {
        get { fields.body }
        set {
            fields.body = newValue
            fields.localizations.body = DeferredLocalizationTable.shared.localization(for: newValue)
        }
    }

    open override var badge: NSNumber? {
        get { fields.badge }
        set { fields.badge = newValue }
    }

    open override var sound: UNNotificationSound? {
        get { fields.sound }
        set { fields.sound = newValue }
    }

    open override var attachments: [UNNotificationAttachment] {
        get { fields.attachments }
        set { fields.attachments = newValue }
    }

    open override var userInfo: [AnyHashable: Any] {
        get { fields.userInfo }
        set { fields.userInfo = newValue }
    }

    open override var categoryIdentifier: String {
        get { fields.categoryIdentifier }
        set { fields.categoryIdentifier = newValue }
    }

    open override var threadIdentifier: String {
        get { fields.threadIdentifier }
        set { fields.threadIdentifier = newValue }
    }

    open override var launchImageName: String {
        get { fields.launchImageName }
        set { fields.launchImageName = newValue }
    }

    open override var targetContentIdentifier: String? {
        get { fields.targetContentIdentifier }
        set { fields.targetContentIdentifier = newValue }
    }

    open override var interruptionLevel: UNNotificationInterruptionLevel {
        get { fields.interruptionLevel }
        set { fields.interruptionLevel = newValue }
    }

    open override var relevanceScore: Double {
        get { fields.relevanceScore }
        set { fields.relevanceScore = newValue }
    }

    open override var filterCriteria: String? {
        get { fields.filterCriteria }
        set { fields.filterCriteria = newValue }
    }

    /// How far the task this notification tracks has come, from 0 to 1; `nil` for none.
    ///
    /// A Linux addition (see ``UNNotificationContent/progress``). A value below 0 or above 1
    /// is clamped; a value that is not a number means no progress.
    open override var progress: Double? {
        get { fields.progress }
        set { fields.progress = newValue.flatMap(NotificationProgress.clamped) }
    }

    open override var summaryArgument: String {
        get { fields.summaryArgument }
        set { fields.summaryArgument = newValue }
    }

    open override var summaryArgumentCount: Int {
        get { fields.summaryArgumentCount }
        set { fields.summaryArgumentCount = newValue }
    }
}
