/// A request to deliver a notification: an identifier, the content, and the trigger that says when.
///
/// Adding a request whose identifier is already pending or delivered replaces that notification.
/// The request keeps an immutable copy of the content it is given, so later changes to a
/// ``UNMutableNotificationContent`` do not reach it.
open class UNNotificationRequest: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedIdentifier: String
    private let storedContent: UNNotificationContent
    private let storedTrigger: UNNotificationTrigger?

    /// The identifier that replaces or removes this request and its notification.
    open var identifier: String { storedIdentifier }

    /// The content to show, as it was when the request was created.
    open var content: UNNotificationContent { storedContent }

    /// When to deliver; `nil` delivers at once.
    open var trigger: UNNotificationTrigger? { storedTrigger }

    /// Creates a request; pass a `nil` trigger to deliver as soon as the request is added.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        storedIdentifier = identifier
        storedContent = UNNotificationContent(fields: content.fields)
        storedTrigger = trigger
        super.init()
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationRequest else { return false }
        return identifier == other.identifier && content == other.content && trigger == other.trigger
    }

    open override var hash: Int { identifier.hashValue }

    /// Requests are immutable, so a copy is the request itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    /// Archives the request; see ``UNNotificationContent/encode(with:)`` for `userInfo` values
    /// that cannot be archived.
    open func encode(with coder: NSCoder) {
        guard let snapshot = try? NotificationRequestSnapshot(self) else { return }
        coder.encodeSnapshot(snapshot)
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationRequestSnapshot.self) else { return nil }
        storedIdentifier = snapshot.identifier
        storedContent = snapshot.content.makeContent()
        storedTrigger = snapshot.trigger?.makeTrigger()
        super.init()
    }
}
