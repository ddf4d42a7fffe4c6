import DesktopNotificationsSupport
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
    /// info cannot be archived (``UNNotificationRequest/validateForDelivery()`` refuses such a request before).
    package static func encode(_ request: UNNotificationRequest, date: Date, actionIdentifier: String, textInput: Bool) -> String? {
        encode(request, date: date, actions: [Action(identifier: actionIdentifier, textInput: textInput)])[0]
    }

    /// An action a target is made for.
    package struct Action: Sendable {
        package var identifier: String
        /// A text-input action: its response carries `userText`, empty.
        package var textInput: Bool

        package init(identifier: String, textInput: Bool) {
            self.identifier = identifier
            self.textInput = textInput
        }
    }

    /// The targets of `actions` on `request` delivered at `date`, in their order, each as
    /// ``encode(_:date:actionIdentifier:textInput:)`` makes it (the same bytes): the
    /// notification is archived once for all of them, at each step of the reduction, not once
    /// per action. A target is the archive of a ``NotificationResponseSnapshot`` with sorted
    /// keys, `{"actionIdentifier":…,"notification":…,"userText":""}`, so it is put together
    /// from the notification's archive and the action's.
    package static func encode(_ request: UNNotificationRequest, date: Date, actions: [Action]) -> [String?] {
        var targets = [String?](repeating: nil, count: actions.count)
        guard var snapshot = try? NotificationSnapshot(UNNotification(date: date, request: request)) else { return targets }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let identifiers = actions.map { try? encoder.encode($0.identifier) }
        let reductions: [(inout NotificationSnapshot) -> Void] = [
            { _ in },
            { snapshot in
                snapshot.request.trigger = nil
                snapshot.request.content.userInfo = [:]
                snapshot.request.content.attachments = []
                snapshot.request.content.localizations = nil
            },
            { snapshot in
                snapshot.request.content.title = ""
                snapshot.request.content.subtitle = ""
                snapshot.request.content.body = ""
            },
        ]
        for reduce in reductions {
            reduce(&snapshot)
            guard targets.contains(where: { $0 == nil }), let notification = try? encoder.encode(snapshot) else { continue }
            for index in actions.indices where targets[index] == nil {
                guard let identifier = identifiers[index] else { continue }
                targets[index] = fitting(identifier: identifier, notification: notification, textInput: actions[index].textInput)
            }
        }
        return targets
    }

    private static let head = Data(#"{"actionIdentifier":"#.utf8)
    private static let middle = Data(#","notification":"#.utf8)
    private static let textTail = Data(#","userText":""}"#.utf8)
    private static let tail = Data("}".utf8)

    /// The target of the archived action `identifier` (a JSON string) on the archived
    /// `notification`, when it fits in ``maximumBytes``.
    private static func fitting(identifier: Data, notification: Data, textInput: Bool) -> String? {
        let end = textInput ? textTail : tail
        guard head.count + identifier.count + middle.count + notification.count + end.count <= maximumBytes else { return nil }
        var data = head
        data.append(identifier)
        data.append(middle)
        data.append(notification)
        data.append(end)
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
            snapshot = try OutsideJSON.decode(NotificationResponseSnapshot.self, from: Data(target.utf8))
        } catch {
            throw .malformed(String(describing: error))
        }
        guard !snapshot.actionIdentifier.isEmpty, !snapshot.notification.request.identifier.isEmpty else {
            throw .malformed("an empty action or notification identifier")
        }
        return snapshot.makeResponse(activationToken: activationToken)
    }
}
