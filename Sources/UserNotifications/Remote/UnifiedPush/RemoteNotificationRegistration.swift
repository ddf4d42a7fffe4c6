import Foundation

/// What ``UNUserNotificationCenter/registerForRemoteNotifications(distributor:description:)``
/// hands the app: where its server sends pushes, and the keys it encrypts them with. A Linux
/// addition, in place of Apple's device token.
///
/// Apple registers through `UIApplication.registerForRemoteNotifications()` (or
/// `NSApplication`'s) and answers through the app delegate's
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` or
/// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`. Linux has no
/// `UIApplication` and no APNs: the center registers with a UnifiedPush distributor on the
/// session bus and returns this value (or throws
/// ``RemoteNotificationRegistrationError``), and a later change (a new endpoint, the
/// distributor dropping the app) reaches
/// ``UNUserNotificationCenter/remoteNotificationRegistrationHandler``.
///
/// The app's server sends each push as a Web Push message (RFC 8291, `aes128gcm`) to
/// ``endpoint`` (RFC 8030), encrypted for ``p256dh`` and ``auth``: the `keys` of a Web Push
/// subscription. Its plaintext is the APNs-style JSON of ``RemoteNotificationPayload``.
public struct RemoteNotificationRegistration: Sendable, Hashable {
    /// The push resource the app's server posts to: the device token's counterpart.
    public let endpoint: URL
    /// The app's P-256 public key, uncompressed, base64url without padding (`keys.p256dh`).
    public let p256dh: String
    /// The app's 16-byte authentication secret, base64url without padding (`keys.auth`).
    public let auth: String
    /// The distributor's bus name, `org.unifiedpush.Distributor.<name>`.
    public let distributor: String

    /// The endpoint's UTF-8 bytes, for code that stores Apple's `deviceToken` as `Data`. On
    /// Apple platforms the token is opaque bytes the app hex-encodes; here it is the URL.
    public var deviceToken: Data { Data(endpoint.absoluteString.utf8) }

    /// A registration from its parts.
    public init(endpoint: URL, p256dh: String, auth: String, distributor: String) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.distributor = distributor
    }

    /// A change the distributor tells the app after registering.
    public enum Change: Sendable, Hashable {
        /// The endpoint changed (`NewEndpoint`): give the new registration to the app's server.
        case newEndpoint(RemoteNotificationRegistration)
        /// The distributor dropped the app (`Unregistered`): no pushes arrive until it registers again.
        case unregistered
    }
}
