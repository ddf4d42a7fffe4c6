import Foundation

/// What a ``NotificationService`` says a person did with a notification it shows: a click on
/// it or on one of its buttons, reported by the service's own signal or through
/// `org.freedesktop.Application.ActivateAction` on the app.
struct ServiceClick: Sendable {
    /// Which action was chosen, in the service's terms.
    enum Action: Sendable, Equatable {
        /// The notification itself (``UNNotificationDefaultActionIdentifier``).
        case defaultAction
        /// The button at this index of the notification's category, as it was shown.
        case button(Int)
        /// The action of this identifier, named by the click itself.
        case named(String)
    }

    /// The notification's identifier.
    var identifier: String
    var action: Action
    /// The text typed, for a text-input action; `nil` when the service sent none.
    var userText: String?
    var activationToken: String?
    /// The nonce the click's target carried: when set, the click is taken only for a listed
    /// notification whose own nonce it matches (a target of a notification replaced since, or
    /// a forger's guess, is refused).
    var nonce: String?
    /// The whole response, when the click carries it (GNOME's target archives it): handed to
    /// the delegate as it stands when the engine does not list the notification, which is so
    /// in an app the click relaunched. Without it, such a click is ignored.
    var archived: UNNotificationResponse?
}
