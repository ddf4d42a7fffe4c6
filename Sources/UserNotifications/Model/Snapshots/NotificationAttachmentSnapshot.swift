/// The stored form of a ``UNNotificationAttachment``.
struct NotificationAttachmentSnapshot: Codable, Hashable, Sendable {
    var identifier: String
    var url: URL
    var type: String
    var isThumbnailHidden: Bool
    var thumbnailClippingRect: ThumbnailClippingRect?

    init(_ attachment: UNNotificationAttachment) {
        identifier = attachment.identifier
        url = attachment.url
        type = attachment.type
        isThumbnailHidden = attachment.isThumbnailHidden
        thumbnailClippingRect = attachment.thumbnailClippingRect
    }

    func makeAttachment() -> UNNotificationAttachment {
        UNNotificationAttachment(
            identifier: identifier, url: url, type: type, isThumbnailHidden: isThumbnailHidden,
            thumbnailClippingRect: thumbnailClippingRect)
    }
}
