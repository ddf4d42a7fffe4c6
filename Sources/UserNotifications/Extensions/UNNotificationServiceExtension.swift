import Foundation

/// The object that may change a remote notification's content before it is shown: for a
/// payload with `mutable-content: 1`, ``didReceive(_:withContentHandler:)`` gets the request
/// and hands back the content to show (decrypted, with a downloaded attachment, ...).
///
/// As on Apple platforms the class is not isolated to an actor: a subclass may finish from a
/// download callback on any queue, and a test may call ``didReceive(_:withContentHandler:)``
/// directly from any context. Not `Sendable`: a subclass keeps the content handler and the
/// content it is building.
///
/// Linux differences: Apple runs a service extension in a process of its own; on Linux it is
/// an object the app registers with
/// ``UNUserNotificationCenter/setServiceExtension(_:deadline:)``, which the center calls on the
/// main thread (``didReceive(_:withContentHandler:)`` and ``serviceExtensionTimeWillExpire()``
/// never run at the same time), so it runs only while the app does: a push the agent takes
/// while the app is not running is shown as sent.
/// The deadline is 30 s by default, as on Apple platforms; when it passes,
/// ``serviceExtensionTimeWillExpire()`` runs and, if the handler is still not called, the
/// original content is shown. Only the first call of the handler counts.
open class UNNotificationServiceExtension: NSObject {
    /// Creates an extension.
    public override init() {
        super.init()
    }

    /// Called with the request of a mutable remote notification. Call `contentHandler` with
    /// the content to show, once. The default shows the content unchanged.
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Called when the deadline passes before the handler was called: the last moment to call
    /// it with the best content at hand.
    open func serviceExtensionTimeWillExpire() {}
}
