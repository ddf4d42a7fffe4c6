import DBus

/// What an `ActionInvoked` signal's `parameter` (`av`) carries, read defensively: it comes
/// from a peer.
///
/// The array holds the action's target when it has one (the engine sets one, a string, on
/// `app.notification-response` actions, which a frontend relays as this signal when it does
/// not activate the app itself), then, from version 2, the platform data (`a{sv}`, with
/// `activation-token`) and, for a button with the `im.reply-with-text` purpose, the reply
/// text (`s`) after it; version 1 sends the target alone or nothing. Only the first
/// ``maximumElements`` elements are looked at; a target longer than
/// ``PortalResponseID/maximumBytes`` or a token longer than ``maximumTokenBytes`` is dropped,
/// and a reply longer than ``maximumReplyBytes`` is cut at a character boundary.
struct PortalActionParameter: Sendable, Hashable {
    var activationToken: String?
    var replyText: String?
    /// The first element when it is a string: the target of the action.
    var target: String?

    static let maximumElements = 8
    static let maximumTokenBytes = 4096
    static let maximumReplyBytes = 65_536

    init(activationToken: String? = nil, replyText: String? = nil, target: String? = nil) {
        self.activationToken = activationToken
        self.replyText = replyText
        self.target = target
    }

    /// Reads `parameter`, the values inside the signal's third argument (`av`).
    init(_ parameter: [DBusValue]) {
        var sawPlatformData = false
        for (index, value) in parameter.prefix(Self.maximumElements).enumerated() {
            if index == 0, let text = value.stringValue {
                if text.utf8.count <= PortalResponseID.maximumBytes { target = text }
                continue
            }
            if !sawPlatformData, let platformData = value.variantDictionaryValue {
                sawPlatformData = true
                activationToken = platformData["activation-token"]?.stringValue.flatMap(Self.token)
            } else if sawPlatformData, replyText == nil, let text = value.stringValue {
                replyText = Self.clipped(text)
            }
        }
    }

    private static func token(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= maximumTokenBytes else { return nil }
        return text
    }

    private static func clipped(_ text: String) -> String {
        guard text.utf8.count > maximumReplyBytes else { return text }
        var clipped = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            guard bytes <= maximumReplyBytes else { break }
            clipped.append(character)
        }
        return clipped
    }
}
