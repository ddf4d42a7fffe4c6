/// The stored form of a ``UNNotificationAction``; `textInput` is set for text-input actions.
struct NotificationActionSnapshot: Codable, Hashable, Sendable {
    struct TextInput: Codable, Hashable, Sendable {
        var buttonTitle: String
        var placeholder: String
    }

    var identifier: String
    var title: String
    var options: UInt
    var icon: UNNotificationActionIcon.Source?
    var textInput: TextInput?

    init(_ action: UNNotificationAction) {
        identifier = action.identifier
        title = action.title
        options = action.options.rawValue
        icon = action.icon?.source
        textInput = (action as? UNTextInputNotificationAction).map {
            TextInput(buttonTitle: $0.textInputButtonTitle, placeholder: $0.textInputPlaceholder)
        }
    }

    func makeAction() -> UNNotificationAction {
        let options = UNNotificationActionOptions(rawValue: options)
        let icon = icon.map(UNNotificationActionIcon.init(source:))
        guard let textInput else {
            return UNNotificationAction(identifier: identifier, title: title, options: options, icon: icon)
        }
        return UNTextInputNotificationAction(
            identifier: identifier,
            title: title,
            options: options,
            icon: icon,
            textInputButtonTitle: textInput.buttonTitle,
            textInputPlaceholder: textInput.placeholder
        )
    }
}
