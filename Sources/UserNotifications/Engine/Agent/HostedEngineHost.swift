/// What the per-user agent gives an engine it hosts for an app: the app's presentation
/// decision, its content extensions (which live in the app), and the way its responses go (to
/// the running app, or into its queue).
package protocol HostedEngineHost: AnyObject, Sendable {
    /// How to present `notification`: the connected app's answer, or the default options.
    func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions
    /// Takes a response for the app.
    func receive(_ response: UNNotificationResponse)
    /// Whether the connected app has a content extension for the category.
    func hasContentExtension(forCategory category: String) -> Bool
    /// Tells the connected app's content extension that its notification is shown.
    func contentExtensionShown(_ notification: UNNotification) async
    /// The connected app's content extension's answer for a response; `nil` when it gave none
    /// (no app connected, or no answer in time).
    func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption?
}
