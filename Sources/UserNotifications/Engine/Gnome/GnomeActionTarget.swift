import Foundation

/// The target of the GNOME engine's `app.notification-response` action: the response itself,
/// archived as JSON (``NotificationResponseSnapshot``), so that an app GNOME Shell relaunched
/// for a click, which has no record of the notification, hands its delegate the response the
/// click stands for.
///
/// GNOME Shell sends the target back as the one parameter of
/// `org.freedesktop.Application.ActivateAction("notification-response", [target], platform_data)`,
/// which the app side takes as a string of at most ``ApplicationInterface/maximumStringBytes``
/// bytes; a target is kept within that. When the whole notification does not fit, its user
/// info, attachments, trigger and deferred localizations are left out, then its title,
/// subtitle and body: the identifier, category, thread and date always travel.
///
/// A target comes from a bus peer when it comes back: ``decode(_:)`` refuses anything over the
/// bound or not a response archive with ``GnomeActionTargetError``, and never traps.
package enum GnomeActionTarget {
    /// The longest target, in bytes: what the app side takes.
    package static let maximumBytes = ApplicationInterface.maximumStringBytes

    /// The target of `actionIdentifier` on `request` delivered at `date` (`userText` set,
    /// empty, for a text-input action); `nil` when not even the reduced form fits, or the user
    /// info cannot be archived (``InProcessEngine/validate(_:)`` refuses such a request before).
    package static func encode(_ request: UNNotificationRequest, date: Date, actionIdentifier: String, textInput: Bool) -> String? {
        let response = UNNotificationResponse(notification: UNNotification(date: date, request: request), actionIdentifier: actionIdentifier)
        guard var snapshot = try? NotificationResponseSnapshot(response) else { return nil }
        if textInput { snapshot.userText = "" }
        if let text = fitting(snapshot) { return text }
        snapshot.notification.request.trigger = nil
        snapshot.notification.request.content.userInfo = [:]
        snapshot.notification.request.content.attachments = []
        snapshot.notification.request.content.localizations = nil
        if let text = fitting(snapshot) { return text }
        snapshot.notification.request.content.title = ""
        snapshot.notification.request.content.subtitle = ""
        snapshot.notification.request.content.body = ""
        return fitting(snapshot)
    }

    private static func fitting(_ snapshot: NotificationResponseSnapshot) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(snapshot), data.count <= maximumBytes else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether `text` has the shape of a target, a JSON object: the agent's response ids
    /// (UUIDs) and the portal's (`portal:<action>:<id>`) never start with `{`.
    package static func isTarget(_ text: String) -> Bool {
        text.utf8.first == UInt8(ascii: "{")
    }

    /// The response `target` archives, with `activationToken` when it has none: a
    /// ``UNTextInputNotificationResponse`` when it carries text.
    ///
    /// - Throws: ``GnomeActionTargetError``.
    package static func decode(_ target: String, activationToken: String? = nil) throws(GnomeActionTargetError) -> UNNotificationResponse {
        guard target.utf8.count <= maximumBytes else { throw .tooLong(target.utf8.count) }
        let snapshot: NotificationResponseSnapshot
        do {
            snapshot = try JSONDecoder().decode(NotificationResponseSnapshot.self, from: Data(target.utf8))
        } catch {
            throw .malformed(String(describing: error))
        }
        guard !snapshot.actionIdentifier.isEmpty, !snapshot.notification.request.identifier.isEmpty else {
            throw .malformed("an empty action or notification identifier")
        }
        return snapshot.makeResponse(activationToken: activationToken)
    }
}
