/// An action that lets the user type a reply before it is sent to the app.
///
/// On Linux, when the notification server supports KDE's inline replies, the category's first
/// text-input action becomes the inline reply field, and the typed text arrives as a
/// ``UNTextInputNotificationResponse``. Without that support it is an ordinary button and the
/// response carries no text.
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    private let storedTextInputButtonTitle: String
    private let storedTextInputPlaceholder: String

    /// The label of the button that sends the text.
    open var textInputButtonTitle: String { storedTextInputButtonTitle }

    /// The hint shown in the empty text field.
    open var textInputPlaceholder: String { storedTextInputPlaceholder }

    /// Creates a text-input action with an icon.
    public init(
        identifier: String,
        title: String,
        options: UNNotificationActionOptions = [],
        icon: UNNotificationActionIcon?,
        textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        storedTextInputButtonTitle = textInputButtonTitle
        storedTextInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options, icon: icon)
    }

    /// Creates a text-input action without an icon.
    public convenience init(
        identifier: String,
        title: String,
        options: UNNotificationActionOptions = [],
        textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(
            identifier: identifier,
            title: title,
            options: options,
            icon: nil,
            textInputButtonTitle: textInputButtonTitle,
            textInputPlaceholder: textInputPlaceholder
        )
    }

    /// Creates a text-input action with an icon, an empty button title and an empty
    /// placeholder: the initialiser Apple's subclass inherits from ``UNNotificationAction``.
    /// The subclass inherits ``UNNotificationAction/init(identifier:title:options:)`` through
    /// it. Empty texts are not sent, so a server with inline reply shows its own labels.
    public override convenience init(
        identifier: String,
        title: String,
        options: UNNotificationActionOptions = [],
        icon: UNNotificationActionIcon?
    ) {
        self.init(
            identifier: identifier, title: title, options: options, icon: icon, textInputButtonTitle: "",
            textInputPlaceholder: "")
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationActionSnapshot.self),
              let textInput = snapshot.textInput
        else { return nil }
        storedTextInputButtonTitle = textInput.buttonTitle
        storedTextInputPlaceholder = textInput.placeholder
        super.init(
            identifier: snapshot.identifier,
            title: snapshot.title,
            options: UNNotificationActionOptions(rawValue: snapshot.options),
            icon: snapshot.icon.map(UNNotificationActionIcon.init(source:))
        )
    }
}
