import Foundation

// The response side of content extensions, for the engine in front of a service: the
// portal and GNOME close a notification when it is clicked (neither has a `resident` hint), so
// the extension cannot keep it on screen, but it sees each response first and decides whether
// the delegate is told, as in process.
extension ServiceEngine {
    /// Tells the content extension of `notification`'s category, when the host has one, that it
    /// is shown; in a task of its own, since the extension runs on the main actor.
    func tellContentExtensionShown(_ notification: UNNotification) {
        guard let host, host.hasContentExtension(forCategory: notification.request.content.categoryIdentifier) else { return }
        Task { await host.contentExtensionShown(notification) }
    }

    /// Hands `response` to the content extension of its category first, when the host has one,
    /// and to the host after it unless its answer keeps it: `.dismissAndForwardAction` (or no
    /// answer) tells the delegate; `.dismiss` and `.doNotDismiss` do not. The service closed the
    /// notification already, so `.doNotDismiss` cannot keep it shown, and it has left the
    /// delivered list either way.
    func route(_ response: UNNotificationResponse) {
        guard let host else { return }
        host.route(response) { option in if option == .dismissAndForwardAction { host.receive(response) } }
    }
}
