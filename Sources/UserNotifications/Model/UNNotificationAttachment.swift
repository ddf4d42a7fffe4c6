/// An option key: the attachment's type as a string, either a uniform type identifier such as
/// `"public.png"` or, on Linux also, a MIME type such as `"image/png"`. Without it the type comes
/// from the file name extension, and failing that from the file's first bytes.
public let UNNotificationAttachmentOptionsTypeHintKey: String = "UNNotificationAttachmentOptionsTypeHintKey"

/// An option key: a `Bool` saying whether to hide the attachment's thumbnail. A hidden image is
/// not sent to the desktop as the notification's image on Linux.
public let UNNotificationAttachmentOptionsThumbnailHiddenKey: String = "UNNotificationAttachmentOptionsThumbnailHiddenKey"

/// An option key: the part of the image to use as the thumbnail, as a normalized rectangle.
/// Accepted and ignored on Linux: notification servers crop images themselves.
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey: String = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"

/// An option key: the frame of an animated image, or the time in a movie, to use as the
/// thumbnail. Accepted and ignored on Linux.
public let UNNotificationAttachmentOptionsThumbnailTimeKey: String = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// An audio, image or movie file shown with a notification.
///
/// Create one from a local file with ``init(identifier:url:options:)``, which checks the file
/// the way Apple does and throws a ``UNError`` naming what is wrong. On Linux the first image
/// attachment whose thumbnail is not hidden becomes the notification's image; audio and movie
/// attachments are kept on the model, since the freedesktop specification cannot show them.
open class UNNotificationAttachment: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedIdentifier: String
    private let storedURL: URL
    private let storedType: String

    /// Whether the app asked to hide the thumbnail (``UNNotificationAttachmentOptionsThumbnailHiddenKey``).
    let isThumbnailHidden: Bool

    /// The attachment's identifier, unique among the attachments of one notification.
    open var identifier: String { storedIdentifier }

    /// The attachment file's location.
    open var url: URL { storedURL }

    /// The attachment's uniform type identifier, such as `"public.png"`.
    open var type: String { storedType }

    init(identifier: String, url: URL, type: String, isThumbnailHidden: Bool = false) {
        storedIdentifier = identifier
        storedURL = url
        storedType = type
        self.isThumbnailHidden = isThumbnailHidden
        super.init()
    }

    /// Creates an attachment for a local file, checking it first.
    ///
    /// - Parameters:
    ///   - identifier: A name for the attachment; an empty string gets a generated unique one.
    ///   - url: A `file:` URL of a readable, regular file.
    ///   - options: Any of the `UNNotificationAttachmentOptions…Key` keys.
    /// - Throws: ``UNError`` with `.attachmentInvalidURL` when the URL is not a file URL or no
    ///   readable file is there, `.attachmentUnrecognizedType` when the type is not one Apple
    ///   supports, `.attachmentInvalidFileSize` when the file is empty or above its kind's limit
    ///   (audio 5 MB, image 10 MB, movie 50 MB), `.attachmentCorrupt` when its first bytes do not
    ///   fit its type.
    ///
    /// Unlike Apple, the file is not moved anywhere yet; the center copies it into its data store
    /// when the notification is added.
    public convenience init(identifier: String, url: URL, options: [AnyHashable: Any]? = nil) throws {
        let typeHint = options?[UNNotificationAttachmentOptionsTypeHintKey]
        let inspection = try AttachmentFileInspection(url: url, typeHint: typeHint)
        self.init(
            identifier: identifier.isEmpty ? UUID().uuidString : identifier,
            url: url,
            type: inspection.type.identifier,
            isThumbnailHidden: (options?[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool) ?? false
        )
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAttachment else { return false }
        return identifier == other.identifier && url == other.url && type == other.type
            && isThumbnailHidden == other.isThumbnailHidden
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        hasher.combine(url)
        return hasher.finalize()
    }

    /// Attachments are immutable, so a copy is the attachment itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(NotificationAttachmentSnapshot(self))
    }

    public required convenience init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationAttachmentSnapshot.self) else { return nil }
        self.init(
            identifier: snapshot.identifier,
            url: snapshot.url,
            type: snapshot.type,
            isThumbnailHidden: snapshot.isThumbnailHidden
        )
    }
}
