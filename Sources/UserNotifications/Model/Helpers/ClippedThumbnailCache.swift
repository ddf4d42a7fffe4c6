import DesktopNotificationsSupport
import FreedesktopNotifications

/// One attachment's clipped thumbnail, rendered at most once (a failed render is remembered
/// too, so a missing gdk-pixbuf is not asked again for every delivery).
final class ClippedThumbnailCache: Sendable {
    private let rendered = Locked<NotificationImage??>(nil)

    /// The cached image, rendering it with `render` the first time.
    func image(_ render: () -> NotificationImage?) -> NotificationImage? {
        rendered.withLock { cached in
            if let cached { return cached }
            let image = render()
            cached = .some(image)
            return image
        }
    }
}
