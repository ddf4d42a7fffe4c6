import Foundation
import FreedesktopNotifications

/// The mapping of `mapping.md`, both ways, row by row: a request to `Notify` arguments here,
/// the server's signals to responses in ``response(to:category:actionKey:text:)``. Pure: the
/// same inputs give the same arguments, which the golden tests rely on. (A clipped thumbnail is read
/// from its attachment, which decodes its file once and keeps the pixels.)
struct NotificationBridge {
    let identity: ApplicationIdentity
    let capabilities: Set<NotificationCapability>

    /// The sound name sent for `UNNotificationSound.default`.
    static let defaultSoundName = "message-new-instant"

    func notifyRequest(
        for request: UNNotificationRequest, category: UNNotificationCategory?,
        options: UNNotificationPresentationOptions, replacesID: UInt32
    ) -> NotifyRequest {
        let content = request.content
        var hints = NotificationHints()
        hints.desktopEntry = identity.id
        hints.urgency = Self.urgency(for: content.interruptionLevel)
        if options.showsBanner && !options.showsInList { hints.transient = true }
        if let progress = content.progress { hints.value = NotificationProgress.percent(progress) }
        Self.applySound(of: content, options: options, to: &hints)
        if let image = Self.shownImage(among: content.attachments) {
            if let clipped = image.clippedThumbnail {
                hints.image = clipped
            } else {
                hints.imagePath = image.url.absoluteURL.absoluteString
            }
        }
        let actions = self.actions(for: category, hints: &hints)
        return NotifyRequest(
            appName: identity.displayName, replacesID: replacesID, appIcon: identity.icon,
            summary: content.title.isEmpty ? identity.displayName : content.title,
            body: body(subtitle: content.subtitle, body: content.body),
            actions: actions, hints: hints, expiry: .serverDefault)
    }

    /// Subtitle on its own first line, then the body; escaped (and the subtitle bold) only
    /// when the server parses markup.
    func body(subtitle: String, body: String) -> String {
        guard capabilities.contains(.bodyMarkup) else {
            return subtitle.isEmpty ? body : body.isEmpty ? subtitle : subtitle + "\n" + body
        }
        let escapedBody = Self.escapeMarkup(body)
        guard !subtitle.isEmpty else { return escapedBody }
        let bold = "<b>" + Self.escapeMarkup(subtitle) + "</b>"
        return escapedBody.isEmpty ? bold : bold + "\n" + escapedBody
    }

    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func urgency(for level: UNNotificationInterruptionLevel) -> NotificationUrgency {
        switch level {
        case .passive: .low
        case .critical: .critical
        default: .normal
        }
    }

    /// The image attachment shown: the first whose thumbnail is not hidden. A clipped one
    /// travels as pixels (`image-data`), decoded from the (stored) file; any other as its file.
    static func shownImage(among attachments: [UNNotificationAttachment]) -> UNNotificationAttachment? {
        attachments.first { $0.isImage && !$0.isThumbnailHidden }
    }

    /// No sound, options without `.sound`, or a passive request (which Apple delivers without
    /// a sound): `suppress-sound` alone. The default sound plays
    /// the first audio attachment (`sound-file`, the stored copy) when there is one, else the
    /// theme's default; a named sound always wins over the attachment.
    static func applySound(of content: UNNotificationContent, options: UNNotificationPresentationOptions, to hints: inout NotificationHints) {
        let audio = content.attachments.first(where: \.isAudio)
        guard let sound = content.sound, content.interruptionLevel != .passive, options.contains(.sound) else {
            hints.suppressSound = true
            return
        }
        guard let name = sound.name?.rawValue else {
            if let audio {
                hints.soundFile = audio.url.path
            } else {
                hints.soundName = Self.defaultSoundName
            }
            return
        }
        if name.hasPrefix("/"), FileManager.default.isReadableFile(atPath: name) {
            hints.soundFile = name
        } else {
            hints.soundName = name
        }
    }

    /// `default` first (the click on the notification), then the category's actions in
    /// order; the first text-input action becomes KDE's inline reply where the server has it.
    private func actions(for category: UNNotificationCategory?, hints: inout NotificationHints) -> [NotificationAction] {
        guard capabilities.contains(.actions) else { return [] }
        var actions = [NotificationAction(key: NotificationAction.defaultKey, label: "")]
        var replyUsed = false
        for action in category?.actions ?? [] {
            if let textAction = action as? UNTextInputNotificationAction, !replyUsed, capabilities.contains(.inlineReply) {
                replyUsed = true
                actions.append(NotificationAction(key: NotificationAction.inlineReplyKey, label: action.title))
                if !textAction.textInputPlaceholder.isEmpty { hints.replyPlaceholderText = textAction.textInputPlaceholder }
                if !textAction.textInputButtonTitle.isEmpty { hints.replySubmitButtonText = textAction.textInputButtonTitle }
            } else {
                actions.append(NotificationAction(key: action.identifier, label: action.title))
            }
        }
        return actions
    }
}
