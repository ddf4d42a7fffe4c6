/// The values behind a notification's content, shared by ``UNNotificationContent`` and its
/// mutable subclass. Defaults are Apple's.
struct NotificationContentFields {
    var title = ""
    var subtitle = ""
    var body = ""
    var badge: NSNumber?
    var sound: UNNotificationSound?
    var attachments: [UNNotificationAttachment] = []
    var userInfo: [AnyHashable: Any] = [:]
    var categoryIdentifier = ""
    var threadIdentifier = ""
    var launchImageName = ""
    var targetContentIdentifier: String?
    var interruptionLevel: UNNotificationInterruptionLevel = .active
    var relevanceScore: Double = 0
    var filterCriteria: String?
    var summaryArgument = ""
    var summaryArgumentCount = 0
    /// A Linux addition: how far the task the notification tracks has come, 0...1.
    var progress: Double?
    /// Texts to look up again at delivery; not part of equality (the texts are).
    var localizations = DeferredLocalizations()
}

extension NotificationContentFields: Hashable {
    static func == (lhs: NotificationContentFields, rhs: NotificationContentFields) -> Bool {
        lhs.title == rhs.title && lhs.subtitle == rhs.subtitle && lhs.body == rhs.body
            && lhs.badge == rhs.badge && lhs.sound == rhs.sound && lhs.attachments == rhs.attachments
            && UserInfoEquality.areEqual(lhs.userInfo, rhs.userInfo)
            && lhs.categoryIdentifier == rhs.categoryIdentifier && lhs.threadIdentifier == rhs.threadIdentifier
            && lhs.launchImageName == rhs.launchImageName && lhs.targetContentIdentifier == rhs.targetContentIdentifier
            && lhs.interruptionLevel == rhs.interruptionLevel && lhs.relevanceScore == rhs.relevanceScore
            && lhs.filterCriteria == rhs.filterCriteria && lhs.summaryArgument == rhs.summaryArgument
            && lhs.summaryArgumentCount == rhs.summaryArgumentCount && lhs.progress == rhs.progress
    }

    /// Hashes the text fields only; `userInfo` may hold values that cannot be hashed.
    func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(subtitle)
        hasher.combine(body)
        hasher.combine(categoryIdentifier)
        hasher.combine(threadIdentifier)
    }
}
