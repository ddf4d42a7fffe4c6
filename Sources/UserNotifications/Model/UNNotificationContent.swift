/// The content of a notification: its texts, sound, badge, attachments and custom data.
///
/// Instances are immutable. Build content with ``UNMutableNotificationContent``; a request keeps
/// an immutable copy of it. `mutableCopy()` gives an editable copy of any content, `copy()` an
/// immutable one, and `isEqual(_:)` compares by value.
///
/// On Linux the title becomes the notification's summary, the subtitle the first line of its
/// body, and the category's actions its buttons. `threadIdentifier`, `relevanceScore`,
/// `targetContentIdentifier`, `filterCriteria`, `launchImageName` and the summary fields have no
/// freedesktop counterpart: they are kept on the model and in the store but do not reach the
/// desktop.
///
/// Not `Sendable`: Apple's SDK keeps the mutable subclass out of `Sendable`, and Swift cannot
/// withdraw a conformance that a subclass inherits, so the immutable class goes without it too.
/// ``UNNotificationRequest``, which holds an immutable copy, is `Sendable`.
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, NSSecureCoding {
    /// Written only by ``UNMutableNotificationContent``.
    var fields: NotificationContentFields

    /// Creates empty content. Apple advises building content with ``UNMutableNotificationContent``.
    public override init() {
        fields = NotificationContentFields()
        super.init()
    }

    /// Content with these fields. A convenience initialiser, so that ``init()`` stays the only
    /// designated one besides the coder's: a subclass in another module inherits them all, as
    /// `class MyContent: UNMutableNotificationContent {}` does on Apple platforms.
    convenience init(fields: NotificationContentFields) {
        self.init()
        self.fields = fields
    }

    /// The notification's title; on Linux its summary line. An empty title shows the app's name.
    open var title: String { fields.title }

    /// A second line under the title; on Linux the first line of the body.
    open var subtitle: String { fields.subtitle }

    /// The notification's message.
    open var body: String { fields.body }

    /// The number to show on the app's icon: `nil` leaves it unchanged, 0 hides it. On Linux it
    /// sets the count of the app's launcher entry.
    open var badge: NSNumber? { fields.badge }

    /// The sound to play on delivery; `nil` plays none.
    open var sound: UNNotificationSound? { fields.sound }

    /// Media files to show with the notification; Linux shows the first image.
    open var attachments: [UNNotificationAttachment] { fields.attachments }

    /// Custom data for the app. Only property-list values (strings, numbers, booleans, dates,
    /// data, and arrays or string-keyed dictionaries of them) survive scheduling on Linux.
    open var userInfo: [AnyHashable: Any] { fields.userInfo }

    /// The identifier of the registered category whose actions the notification offers.
    open var categoryIdentifier: String { fields.categoryIdentifier }

    /// Groups related notifications visually on Apple platforms. Kept, not sent, on Linux.
    open var threadIdentifier: String { fields.threadIdentifier }

    /// The launch image to show when the app opens from the notification. Kept, unused, on Linux.
    open var launchImageName: String { fields.launchImageName }

    /// Tells the app which scene to bring forward when the notification is opened. Kept, not sent, on Linux.
    open var targetContentIdentifier: String? { fields.targetContentIdentifier }

    /// How urgently the notification interrupts; on Linux it sets the `urgency` hint.
    open var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }

    /// How relevant this notification is next to the app's others, from 0 to 1. Kept, not sent, on Linux.
    open var relevanceScore: Double { fields.relevanceScore }

    /// A string a Focus filter can match. Kept, not sent, on Linux.
    open var filterCriteria: String? { fields.filterCriteria }

    /// The text inserted into a category summary. Deprecated by Apple in iOS 15; kept on Linux.
    open var summaryArgument: String { fields.summaryArgument }

    /// How many items the summary argument stands for. Deprecated by Apple in iOS 15; kept on Linux.
    open var summaryArgumentCount: Int { fields.summaryArgumentCount }

    /// How far the task this notification tracks has come, from 0 to 1; `nil` (the default)
    /// for a notification without a progress bar.
    ///
    /// A Linux addition: Apple's content has no progress. It travels as the freedesktop `value`
    /// hint (0 to 100), which dunst, mako and xfce4-notifyd draw as a bar; GNOME Shell and
    /// KDE Plasma 5 show no bar for it. Post the request again under the same identifier to
    /// move the bar: the notification is updated in place, and updates that change nothing
    /// but the progress reach the server at most every 100 ms (the last always does; see
    /// ``UNUserNotificationCenter/add(_:)``).
    open var progress: Double? { fields.progress }

    /// Returns the content updated with information from a provider, such as a message intent
    /// that adds the sender's name and picture.
    ///
    /// Apple accepts only SiriKit intents (`INSendMessageIntent`, `INStartCallIntent`) as
    /// providers. SiriKit does not exist on Linux, so no provider is allowed here.
    ///
    /// - Throws: ``UNError`` with code `.contentProvidingObjectNotAllowed`, always.
    open func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
        throw UNError(
            .contentProvidingObjectNotAllowed,
            description: "\(Swift.type(of: provider)) cannot provide notification content: Linux has no SiriKit intents."
        )
    }

    // MARK: - NSObject, NSCopying, NSMutableCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationContent else { return false }
        return fields == other.fields
    }

    open override var hash: Int { fields.hashValue }

    /// An immutable copy, also when the receiver is mutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        UNNotificationContent(fields: fields)
    }

    /// An editable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        UNMutableNotificationContent(fields: fields)
    }

    public class var supportsSecureCoding: Bool { true }

    /// Archives the content. When `userInfo` holds a value that is not a property-list value the
    /// content is left out of the archive, and unarchiving it fails.
    open func encode(with coder: NSCoder) {
        guard let snapshot = try? NotificationContentSnapshot(self) else { return }
        coder.encodeSnapshot(snapshot)
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationContentSnapshot.self) else { return nil }
        fields = snapshot.fields
        super.init()
    }
}
