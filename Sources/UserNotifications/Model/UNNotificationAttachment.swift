import FreedesktopNotifications

/// An option key: the attachment's type as a string, either a uniform type identifier such as
/// `"public.png"` or, on Linux also, a MIME type such as `"image/png"`. Without it the type comes
/// from the file name extension, and failing that from the file's first bytes.
public let UNNotificationAttachmentOptionsTypeHintKey: String = "UNNotificationAttachmentOptionsTypeHintKey"

/// An option key: a `Bool` saying whether to hide the attachment's thumbnail. A hidden image is
/// not sent to the desktop as the notification's image on Linux.
public let UNNotificationAttachmentOptionsThumbnailHiddenKey: String = "UNNotificationAttachmentOptionsThumbnailHiddenKey"

/// An option key: the part of the image to use as the thumbnail, in the image's unit
/// coordinates (`0...1`), as a `CGRect`'s `dictionaryRepresentation`: for example
/// `["X": 0.25, "Y": 0.25, "Width": 0.5, "Height": 0.5]` shows the middle of the image.
///
/// On Linux the notification then carries the clipped pixels (the `image-data` hint) instead of
/// the image file, decoded with gdk-pixbuf when the notification is stored or shown. Where Linux
/// differs:
/// - A `CGRect`, or an `NSValue` holding one, is accepted as well as the dictionary.
/// - The origin is the image's top-left corner, as its pixel rows run.
/// - A rectangle that is not finite, has no area or reaches outside `0...1` makes
///   ``UNNotificationAttachment/init(identifier:url:options:)`` throw `UNError.attachmentCorrupt`
///   (Apple documents no check, and has no code for a bad option).
/// - Clipped images larger than 4 MiB of pixels (1024 × 1024 with alpha) are scaled down.
/// - Without gdk-pixbuf (Debian package `libgdk-pixbuf-2.0-0`), or when it cannot decode the
///   file, the whole image is shown from its file (`image-path`). Movies are never clipped.
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey: String = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"

/// An option key: the frame of an animated image, or the time in a movie, to use as the
/// thumbnail. Accepted and ignored on Linux.
public let UNNotificationAttachmentOptionsThumbnailTimeKey: String = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// An audio, image or movie file shown with a notification.
///
/// Create one from a local file with ``init(identifier:url:options:)``, which checks the file
/// the way Apple does and throws a ``UNError`` naming what is wrong. On Linux the first image
/// attachment whose thumbnail is not hidden becomes the notification's image (clipped when it
/// has a clipping rectangle); the first audio attachment is played instead of the default sound
/// when the content's sound is ``UNNotificationSound/default``; movies are kept on the model,
/// since the freedesktop specification cannot show them.
open class UNNotificationAttachment: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedIdentifier: String
    private let storedURL: URL
    private let storedType: String

    /// Whether the app asked to hide the thumbnail (``UNNotificationAttachmentOptionsThumbnailHiddenKey``).
    let isThumbnailHidden: Bool

    /// The part of the image to show (``UNNotificationAttachmentOptionsThumbnailClippingRectKey``);
    /// `nil` for the whole image.
    let thumbnailClippingRect: ThumbnailClippingRect?

    private let clippedThumbnailCache = ClippedThumbnailCache()

    /// The attachment's identifier, unique among the attachments of one notification.
    open var identifier: String { storedIdentifier }

    /// The attachment file's location.
    open var url: URL { storedURL }

    /// The attachment's uniform type identifier, such as `"public.png"`.
    open var type: String { storedType }

    init(
        identifier: String, url: URL, type: String, isThumbnailHidden: Bool = false,
        thumbnailClippingRect: ThumbnailClippingRect? = nil
    ) {
        storedIdentifier = identifier
        storedURL = url
        storedType = type
        self.isThumbnailHidden = isThumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
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
    ///   fit its type or, on Linux, when the thumbnail clipping rectangle is not a rectangle
    ///   within `0...1` with a positive size.
    ///
    /// Unlike Apple, the file is not moved anywhere yet; the center copies it into its data store
    /// when the notification is added. The type comes from the type hint, else the file name's
    /// extension, else the file's first bytes; on Linux, bytes this package does not know are
    /// also shown to GIO's content sniffing (shared-mime-info) when GLib is installed.
    public convenience init(identifier: String, url: URL, options: [AnyHashable: Any]? = nil) throws {
        let typeHint = options?[UNNotificationAttachmentOptionsTypeHintKey]
        let inspection = try AttachmentFileInspection(url: url, typeHint: typeHint)
        let clippingRect = try options?[UNNotificationAttachmentOptionsThumbnailClippingRectKey]
            .map { value throws(UNError) in try ThumbnailClippingRect(optionValue: value) }
        self.init(
            identifier: identifier.isEmpty ? UUID().uuidString : identifier,
            url: url,
            type: inspection.type.identifier,
            isThumbnailHidden: (options?[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool) ?? false,
            thumbnailClippingRect: clippingRect
        )
    }

    var isImage: Bool { AttachmentFileType.named(type)?.kind == .image }

    var isAudio: Bool { AttachmentFileType.named(type)?.kind == .audio }

    /// The clipped thumbnail's pixels, for the `image-data` hint: `nil` when the attachment is
    /// not an image, has no clipping rectangle (or one covering the whole image), or cannot be
    /// decoded here. Decoded once per attachment.
    var clippedThumbnail: NotificationImage? {
        guard let rect = thumbnailClippingRect, !rect.isWholeImage, isImage else { return nil }
        return clippedThumbnailCache.image { ClippedThumbnail.render(fileAt: url.path, clippingTo: rect) }
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAttachment else { return false }
        return identifier == other.identifier && url == other.url && type == other.type
            && isThumbnailHidden == other.isThumbnailHidden && thumbnailClippingRect == other.thumbnailClippingRect
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

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationAttachmentSnapshot.self) else { return nil }
        storedIdentifier = snapshot.identifier
        storedURL = snapshot.url
        storedType = snapshot.type
        isThumbnailHidden = snapshot.isThumbnailHidden
        thumbnailClippingRect = snapshot.thumbnailClippingRect
        super.init()
    }
}
