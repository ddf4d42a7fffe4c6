// Initialisers a subclass inherits on Apple platforms.
import Foundation
import UserNotifications

/// A text-input action made with the initialisers it inherits from `UNNotificationAction`.
public func inheritedTextInputActions() -> [UNTextInputNotificationAction] {
    [
        UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: []),
        UNTextInputNotificationAction(identifier: "quick", title: "Quick reply"),
        UNTextInputNotificationAction(
            identifier: "icon", title: "Reply", options: [.foreground], icon: UNNotificationActionIcon(systemImageName: "message")),
    ]
}
