/// The stored form of a ``UNNotificationContent``. Creating one fails when `userInfo` holds
/// values that are not property-list values.
struct NotificationContentSnapshot: Codable, Hashable, Sendable {
    var title: String
    var subtitle: String
    var body: String
    var badge: Int?
    var sound: NotificationSoundSnapshot?
    var attachments: [NotificationAttachmentSnapshot]
    var userInfo: [String: PropertyListValue]
    var categoryIdentifier: String
    var threadIdentifier: String
    var launchImageName: String
    var targetContentIdentifier: String?
    var interruptionLevel: UInt
    var relevanceScore: Double
    var filterCriteria: String?
    var summaryArgument: String
    var summaryArgumentCount: Int
    /// The progress (a Linux addition); absent when there is none (and in files written before it existed).
    var progress: Double?
    /// The texts to look up again at delivery; absent when there are none (and in files
    /// written before it existed).
    var localizations: DeferredLocalizations?

    init(_ content: UNNotificationContent) throws(UserInfoStorageError) {
        title = content.title
        subtitle = content.subtitle
        body = content.body
        badge = content.badge?.intValue
        sound = content.sound.map(NotificationSoundSnapshot.init)
        attachments = content.attachments.map(NotificationAttachmentSnapshot.init)
        userInfo = try PropertyListValue.dictionary(from: content.userInfo)
        categoryIdentifier = content.categoryIdentifier
        threadIdentifier = content.threadIdentifier
        launchImageName = content.launchImageName
        targetContentIdentifier = content.targetContentIdentifier
        interruptionLevel = content.interruptionLevel.rawValue
        relevanceScore = content.relevanceScore
        filterCriteria = content.filterCriteria
        summaryArgument = content.summaryArgument
        summaryArgumentCount = content.summaryArgumentCount
        progress = content.progress
        localizations = content.fields.localizations.isEmpty ? nil : content.fields.localizations
    }

    var fields: NotificationContentFields {
        NotificationContentFields(
            title: title,
            subtitle: subtitle,
            body: body,
            badge: badge.map { NSNumber(value: $0) },
            sound: sound?.makeSound(),
            attachments: attachments.map { $0.makeAttachment() },
            userInfo: userInfo.mapValues(\.anyValue),
            categoryIdentifier: categoryIdentifier,
            threadIdentifier: threadIdentifier,
            launchImageName: launchImageName,
            targetContentIdentifier: targetContentIdentifier,
            interruptionLevel: UNNotificationInterruptionLevel(rawValue: interruptionLevel) ?? .active,
            relevanceScore: relevanceScore,
            filterCriteria: filterCriteria,
            summaryArgument: summaryArgument,
            summaryArgumentCount: summaryArgumentCount,
            progress: progress.flatMap(NotificationProgress.clamped),
            localizations: localizations ?? DeferredLocalizations()
        )
    }

    /// Immutable content with the stored values.
    func makeContent() -> UNNotificationContent {
        UNNotificationContent(fields: fields)
    }
}
