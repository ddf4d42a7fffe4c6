/// A notification that was delivered: the request behind it and when it was delivered.
///
/// Apps never create notifications; the center hands them to the delegate and lists them among
/// the delivered ones.
open class UNNotification: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedDate: Date
    private let storedRequest: UNNotificationRequest

    /// When the notification was delivered.
    open var date: Date { storedDate }

    /// The request that was delivered.
    open var request: UNNotificationRequest { storedRequest }

    init(date: Date, request: UNNotificationRequest) {
        storedDate = date
        storedRequest = request
        super.init()
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotification else { return false }
        return date == other.date && request == other.request
    }

    open override var hash: Int { request.hash }

    /// Notifications are immutable, so a copy is the notification itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        guard let snapshot = try? NotificationSnapshot(self) else { return }
        coder.encodeSnapshot(snapshot)
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationSnapshot.self) else { return nil }
        storedDate = snapshot.date
        storedRequest = snapshot.request.makeRequest()
        super.init()
    }
}
