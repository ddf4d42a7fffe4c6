import Foundation

/// What an engine asks of the app it serves: the delegate's presentation decision, the
/// responses, and the content and service extensions. The center is the host of its engine; the
/// engine holds it weakly, so a center that goes away takes nothing with it. In the agent, the
/// host of an app's engine is the agent's side of that app, which asks the app's connected
/// center in turn.
package protocol EngineHost: AnyObject, Sendable {
    /// The options when nobody needs to be asked (no delegate), known without a hop; `nil`
    /// when ``askPresentationOptions(for:then:)`` must ask.
    var presentationOptionsWithoutAsking: UNNotificationPresentationOptions? { get }
    /// Asks the delegate how to present `notification` (bounded by the presentation deadline)
    /// and hands the answer to `then`, once, from the thread that has it.
    func askPresentationOptions(for notification: UNNotification, then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)
    /// Takes a response for the delegate; it is told in order, one at a time.
    func receive(_ response: UNNotificationResponse)
    /// Whether a content extension handles the category.
    func hasContentExtension(forCategory category: String) -> Bool
    /// The categories a content extension handles (the agent is told them at `Connect`).
    var contentExtensionCategories: Set<String> { get }
    /// Tells the category's content extension that its notification is shown.
    func contentExtensionShown(_ notification: UNNotification) async
    /// The category's content extension's answer for a response; `nil` without one.
    func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption?
    /// The content a mutable pushed request is shown with: the service extension's answer,
    /// else (at its deadline) the request's own content.
    func serviceExtensionContent(for request: UNNotificationRequest) async -> UNNotificationContent
}
