/// What the per-user agent gives an engine it hosts for an app: the app's presentation
/// decision and the way its responses go (to the running app, or into its queue).
package protocol HostedEngineHost: AnyObject, Sendable {
    /// How to present `notification`: the connected app's answer, or the default options.
    func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions
    /// Takes a response for the app.
    func receive(_ response: UNNotificationResponse)
}
