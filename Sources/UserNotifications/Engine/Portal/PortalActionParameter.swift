import DBus

/// What an `ActionInvoked` signal's `parameter` (`av`) carries, read defensively: it comes
/// from a peer.
///
/// The engine sets no action targets, so the array holds, from version 2, the platform data
/// (`a{sv}`, with `activation-token`) and, for a button with the `im.reply-with-text`
/// purpose, the reply text (`s`) after it; version 1 sends it empty. Only the first
/// ``maximumElements`` elements are looked at; a token longer than ``maximumTokenBytes`` is
/// dropped and a reply longer than ``maximumReplyBytes`` is cut at a character boundary.
struct PortalActionParameter: Sendable, Hashable {
    var activationToken: String?
    var replyText: String?

    static let maximumElements = 8
    static let maximumTokenBytes = 4096
    static let maximumReplyBytes = 65_536

    init(activationToken: String? = nil, replyText: String? = nil) {
        self.activationToken = activationToken
        self.replyText = replyText
    }

    /// Reads `parameter`, the signal's third argument; anything but an `av` reads as empty.
    init(_ parameter: DBusValue) {
        guard case .array(.variant, let elements) = parameter else { return }
        var sawPlatformData = false
        for element in elements.prefix(Self.maximumElements) {
            guard let value = element.variantValue else { continue }
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
