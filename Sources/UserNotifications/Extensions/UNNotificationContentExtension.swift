import Foundation

/// The object that sees a notification's actions before the app's delegate does.
///
/// Linux differences: Apple's content extensions are view controllers that draw a custom
/// interface inside the notification. No freedesktop server can show app-drawn interfaces,
/// so only the response side exists here: an object the app registers for some categories
/// with ``UNUserNotificationCenter/setContentExtension(_:forCategories:)``, told of each
/// notification of those categories and asked first about each action. Notifications of
/// those categories are posted as `resident`, so that an action does not close them before
/// the extension has answered. Called on the main actor.
@MainActor
public protocol UNNotificationContentExtension: NSObjectProtocol {
    /// A notification of one of the extension's categories was shown.
    func didReceive(_ notification: UNNotification)

    /// The person chose an action; answer what happens next. By default the notification is
    /// closed and the action forwarded to the delegate. The handler is `@Sendable` and the
    /// requirement `@preconcurrency`, as in Apple's current SDK.
    @preconcurrency
    func didReceive(
        _ response: UNNotificationResponse,
        completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void)

    /// The `async` form of ``didReceive(_:completionHandler:)``, as Apple's SDK has it: the
    /// center calls this one, whose default asks the completion-handler form.
    func didReceive(_ response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption
}

extension UNNotificationContentExtension {
    /// Default: close the notification and forward the action.
    @preconcurrency
    public func didReceive(
        _ response: UNNotificationResponse,
        completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        completion(.dismissAndForwardAction)
    }

    /// Default: asks the completion-handler form and returns its first answer.
    public func didReceive(_ response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            didReceive(response) { once.resume(returning: $0) }
        }
    }
}
