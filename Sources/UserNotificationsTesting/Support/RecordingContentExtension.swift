public import Foundation
public import UserNotifications

/// A content extension for tests: it records the notifications it is told are shown and the
/// action identifiers of the responses it sees, and answers every response with ``answer``.
///
/// Register it with `UNUserNotificationCenter.setContentExtension(_:forCategories:)`;
/// the center calls it on the main actor, as Apple's extensions are called.
@MainActor
public final class RecordingContentExtension: NSObject, UNNotificationContentExtension {
    /// What every response is answered with.
    public let answer: UNNotificationContentExtensionResponseOption
    /// The identifiers of the notifications shown, in order.
    public private(set) var shown: [String] = []
    /// The action identifiers of the responses seen, in order.
    public private(set) var seen: [String] = []

    /// An extension that answers every response with `answer`.
    public init(_ answer: UNNotificationContentExtensionResponseOption) {
        self.answer = answer
    }

    /// Records that `notification` is shown.
    public func didReceive(_ notification: UNNotification) {
        shown.append(notification.request.identifier)
    }

    /// Records the response's action and answers ``answer``.
    public func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        seen.append(response.actionIdentifier)
        completion(answer)
    }
}
