/// A kind of notification the app sends, with the actions such notifications offer.
///
/// Register categories with the center; a notification whose content names a category by its
/// `categoryIdentifier` shows that category's actions. Categories compare by value.
///
/// On Linux the actions become freedesktop actions, and `.customDismissAction` reports closes by
/// the user. Intent identifiers, the hidden-previews placeholder and the summary format have no
/// freedesktop counterpart: they are kept on the model and in the store.
open class UNNotificationCategory: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedIdentifier: String
    private let storedActions: [UNNotificationAction]
    private let storedIntentIdentifiers: [String]
    private let storedOptions: UNNotificationCategoryOptions
    private let storedHiddenPreviewsBodyPlaceholder: String
    private let storedCategorySummaryFormat: String

    /// The identifier that content names in `categoryIdentifier`.
    open var identifier: String { storedIdentifier }

    /// The actions, in the order they are shown.
    open var actions: [UNNotificationAction] { storedActions }

    /// The SiriKit intents these notifications relate to. Kept, unused, on Linux.
    open var intentIdentifiers: [String] { storedIntentIdentifiers }

    /// How notifications of this category are handled.
    open var options: UNNotificationCategoryOptions { storedOptions }

    /// The text shown instead of the body when previews are hidden; empty when not set.
    open var hiddenPreviewsBodyPlaceholder: String { storedHiddenPreviewsBodyPlaceholder }

    /// The format of the summary of grouped notifications, e.g. `"%u new messages from %@"`;
    /// empty when not set.
    open var categorySummaryFormat: String { storedCategorySummaryFormat }

    /// Creates a category with a placeholder for hidden previews and a summary format.
    public init(
        identifier: String,
        actions: [UNNotificationAction],
        intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String?,
        categorySummaryFormat: String?,
        options: UNNotificationCategoryOptions = []
    ) {
        storedIdentifier = identifier
        storedActions = actions
        storedIntentIdentifiers = intentIdentifiers
        storedOptions = options
        storedHiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
        storedCategorySummaryFormat = categorySummaryFormat ?? ""
        super.init()
    }

    /// Creates a category.
    public convenience init(
        identifier: String,
        actions: [UNNotificationAction],
        intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier,
            actions: actions,
            intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: nil,
            categorySummaryFormat: nil,
            options: options
        )
    }

    /// Creates a category with a placeholder for hidden previews.
    public convenience init(
        identifier: String,
        actions: [UNNotificationAction],
        intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String,
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier,
            actions: actions,
            intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: nil,
            options: options
        )
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationCategory else { return false }
        return NotificationCategorySnapshot(other) == NotificationCategorySnapshot(self)
    }

    open override var hash: Int { identifier.hashValue }

    /// Categories are immutable, so a copy is the category itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(NotificationCategorySnapshot(self))
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationCategorySnapshot.self) else { return nil }
        storedIdentifier = snapshot.identifier
        storedActions = snapshot.actions.map { $0.makeAction() }
        storedIntentIdentifiers = snapshot.intentIdentifiers
        storedOptions = UNNotificationCategoryOptions(rawValue: snapshot.options)
        storedHiddenPreviewsBodyPlaceholder = snapshot.hiddenPreviewsBodyPlaceholder
        storedCategorySummaryFormat = snapshot.categorySummaryFormat
        super.init()
    }
}
