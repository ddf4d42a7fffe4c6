/// What decides when a notification is delivered. Use one of the subclasses; a request without a
/// trigger is delivered at once.
///
/// Triggers are immutable and compare by value. Test the kind with `isKind(of:)` or `is`:
///
/// ```swift
/// if notification.request.trigger?.isKind(of: UNPushNotificationTrigger.self) == true { … }
/// ```
open class UNNotificationTrigger: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let storedRepeats: Bool

    /// Whether the notification is delivered again after the first time.
    open var repeats: Bool { storedRepeats }

    init(repeats: Bool) {
        storedRepeats = repeats
        super.init()
    }

    // MARK: - What the center uses

    /// Checks that the trigger can be scheduled. Apple traps on some bad values instead; the
    /// center fails `add` with the thrown error.
    func validate() throws(NotificationTriggerError) {}

    /// The first delivery strictly after `date`, for a request scheduled at `anchor`, or `nil`
    /// when there is none: the trigger has fired for good, or it does not fire by time.
    func nextFireDate(after date: Date, anchor: Date, calendar: Calendar) -> Date? {
        nil
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationTrigger else { return false }
        return Swift.type(of: other) == Swift.type(of: self) && other.repeats == repeats
    }

    open override var hash: Int { repeats.hashValue }

    /// Triggers are immutable, so a copy is the trigger itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(NotificationTriggerSnapshot(self))
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationTriggerSnapshot.self) else { return nil }
        storedRepeats = snapshot.repeats
        super.init()
    }
}
