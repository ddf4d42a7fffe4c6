public import DBus

/// The arguments of one `Notify` call.
public struct NotifyRequest: Sendable, Hashable {
    /// `app_name`: the application's display name.
    public var appName: String
    /// `replaces_id`: the server id to update in place, or 0 for a new notification.
    public var replacesID: UInt32
    /// `app_icon`: an icon name or a `file://` URI; empty for none.
    public var appIcon: String
    /// `summary`: one line of plain text.
    public var summary: String
    /// `body`: plain text, or markup when the server lists `body-markup`.
    public var body: String
    /// `actions`, in order.
    public var actions: [NotificationAction]
    public var hints: NotificationHints
    /// `expire_timeout`.
    public var expiry: NotificationExpiry

    /// Creates the arguments of a Notify call.
    public init(
        appName: String = "", replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
        actions: [NotificationAction] = [], hints: NotificationHints = NotificationHints(),
        expiry: NotificationExpiry = .serverDefault
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expiry = expiry
    }

    /// The message body, after the checks of ``validate(limits:)``.
    public func arguments(limits: NotificationLimits = NotificationLimits()) throws(NotificationsError) -> [DBusValue] {
        try validate(limits: limits)
        return [
            .string(appName), .uint32(replacesID), .string(appIcon), .string(summary), .string(body),
            .stringArray(actions.flatMap { [$0.key, $0.label] }), hints.encoded, .int32(expiry.rawValue),
        ]
    }

    /// Checks every field: no NUL in any string, non-empty unique action keys, the spec's type
    /// for every well-known hint, sizes within `limits`, a well-formed image.
    public func validate(limits: NotificationLimits = NotificationLimits()) throws(NotificationsError) {
        try Self.check("app_name", appName)
        try Self.check("app_icon", appIcon)
        try Self.check("summary", summary)
        try Self.check("body", body)
        guard summary.utf8.count <= limits.summaryBytes else {
            throw .tooLarge(field: "summary", size: summary.utf8.count, limit: limits.summaryBytes)
        }
        guard body.utf8.count <= limits.bodyBytes else {
            throw .tooLarge(field: "body", size: body.utf8.count, limit: limits.bodyBytes)
        }
        guard actions.count <= limits.actionCount else {
            throw .tooLarge(field: "actions", size: actions.count, limit: limits.actionCount)
        }
        var keys = Set<String>()
        for action in actions {
            guard !action.key.isEmpty else { throw .invalidArgument(field: "action key", reason: "is empty") }
            guard keys.insert(action.key).inserted else {
                throw .invalidArgument(field: "action key \(action.key.debugDescription)", reason: "is used twice")
            }
            try Self.check("action key", action.key)
            try Self.check("action label", action.label)
        }
        for (name, value) in hints.raw {
            try Self.check("hint name", name)
            // Hints built with `NotificationHints(raw:)` skip `setVendorHint`'s type check.
            if let expected = NotificationHints.knownTypes[name], value.type != expected {
                throw .invalidArgument(field: "hint \(name)", reason: "must be of type \(expected.signature), not \(value.type.signature)")
            }
            try Self.checkStrings(in: value, hint: name)
        }
        if let data = hints[raw: "image-data"] {
            guard hints.image != nil else { throw .invalidImage("image-data is not a valid (iiibiiay) image") }
            if case .structure(let fields) = data, case .byteArray(let pixels) = fields.last, pixels.count > limits.imageBytes {
                throw .tooLarge(field: "image-data", size: pixels.count, limit: limits.imageBytes)
            }
        }
    }

    /// Refuses `text` when it holds a NUL; `field` names it in the error, and is made only then.
    private static func check(_ field: @autoclosure () -> String, _ text: String) throws(NotificationsError) {
        if text.containsNUL { throw .invalidArgument(field: field(), reason: "contains a NUL character") }
    }

    /// Checks the strings in the value of hint `name` (its field's name is made only when one
    /// fails, so a notification's hints build no text).
    private static func checkStrings(in value: DBusValue, hint name: String) throws(NotificationsError) {
        switch value {
        case .string(let text):
            try check("hint \(name)", text)
        case .variant(let inner): try checkStrings(in: inner, hint: name)
        case .array(_, let elements), .structure(let elements):
            for element in elements { try checkStrings(in: element, hint: name) }
        case .dictionary(_, _, let entries):
            for entry in entries {
                try checkStrings(in: entry.key, hint: name)
                try checkStrings(in: entry.value, hint: name)
            }
        default: break
        }
    }
}

extension NotifyRequest {
    /// Reads a Notify call's body (the server side).
    ///
    /// - Throws: ``NotificationsError/invalidArgument(field:reason:)`` when the signature is not
    ///   `susssasa{sv}i` or the actions list has an odd length.
    public init(arguments body: [DBusValue]) throws(NotificationsError) {
        let found = body.map(\.type.signature).joined()
        guard found == NotificationsInterface.notifySignature,
              case .string(let appName) = body[0], case .uint32(let replacesID) = body[1],
              case .string(let appIcon) = body[2], case .string(let summary) = body[3],
              case .string(let text) = body[4], let flatActions = body[5].stringArrayValue,
              let hints = body[6].variantDictionaryValue, case .int32(let timeout) = body[7] else {
            throw .invalidArgument(field: "Notify arguments", reason: "signature \(found), expected \(NotificationsInterface.notifySignature)")
        }
        guard flatActions.count % 2 == 0 else {
            throw .invalidArgument(field: "actions", reason: "has an odd number of strings")
        }
        let actions = stride(from: 0, to: flatActions.count, by: 2).map {
            NotificationAction(key: flatActions[$0], label: flatActions[$0 + 1])
        }
        self.init(
            appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary, body: text,
            actions: actions, hints: NotificationHints(raw: hints), expiry: NotificationExpiry(rawValue: timeout))
    }
}
