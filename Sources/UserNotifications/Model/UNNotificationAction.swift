/// A button the user can choose on a notification of a category.
///
/// On Linux each action of the notification's category becomes a freedesktop action, in order,
/// with its identifier as the action key and its title as the label (when the server supports
/// actions). Choosing it answers with a response whose `actionIdentifier` is this identifier.
open class UNNotificationAction: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedIdentifier: String
    private let storedTitle: String
    private let storedOptions: UNNotificationActionOptions
    private let storedIcon: UNNotificationActionIcon?

    /// The identifier the response carries when the user chooses this action.
    open var identifier: String { storedIdentifier }

    /// The button's label.
    open var title: String { storedTitle }

    /// How the action behaves; see ``UNNotificationActionOptions`` for what Linux honours.
    open var options: UNNotificationActionOptions { storedOptions }

    /// The image next to the title; kept, not shown, on Linux.
    open var icon: UNNotificationActionIcon? { storedIcon }

    /// Creates an action with an icon.
    public init(
        identifier: String,
        title: String,
        options: UNNotificationActionOptions = [],
        icon: UNNotificationActionIcon?
    ) {
        storedIdentifier = identifier
        storedTitle = title
        storedOptions = options
        storedIcon = icon
        super.init()
    }

    /// Creates an action without an icon.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, icon: nil)
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAction else { return false }
        return NotificationActionSnapshot(other) == NotificationActionSnapshot(self)
    }

    open override var hash: Int { identifier.hashValue }

    /// Actions are immutable, so a copy is the action itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(NotificationActionSnapshot(self))
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationActionSnapshot.self), snapshot.textInput == nil
        else { return nil }
        storedIdentifier = snapshot.identifier
        storedTitle = snapshot.title
        storedOptions = UNNotificationActionOptions(rawValue: snapshot.options)
        storedIcon = snapshot.icon.map(UNNotificationActionIcon.init(source:))
        super.init()
    }
}
