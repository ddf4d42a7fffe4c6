/// The stored form of a ``UNNotificationCategory`` and its actions.
struct NotificationCategorySnapshot: Codable, Hashable, Sendable {
    var identifier: String
    var actions: [NotificationActionSnapshot]
    var intentIdentifiers: [String]
    var options: UInt
    var hiddenPreviewsBodyPlaceholder: String
    var categorySummaryFormat: String

    init(_ category: UNNotificationCategory) {
        identifier = category.identifier
        actions = category.actions.map(NotificationActionSnapshot.init)
        intentIdentifiers = category.intentIdentifiers
        options = category.options.rawValue
        hiddenPreviewsBodyPlaceholder = category.hiddenPreviewsBodyPlaceholder
        categorySummaryFormat = category.categorySummaryFormat
    }

    func makeCategory() -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: identifier,
            actions: actions.map { $0.makeAction() },
            intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: categorySummaryFormat,
            options: UNNotificationCategoryOptions(rawValue: options)
        )
    }
}
