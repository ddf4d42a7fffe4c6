/// Delivers a notification a number of seconds after it is scheduled, once or again and again.
///
/// Apple stops the process when the interval is not positive, or when a repeating interval is
/// under 60 seconds. On Linux the trigger is created as asked and adding its request fails with a
/// ``NotificationTriggerError`` instead.
///
/// **Linux divergence:** the interval is at most
/// ``NotificationTriggerError/maximumTimeInterval``, 100 years of 365.25 days (3,155,760,000
/// seconds). Apple states no upper bound; here a longer interval (such as `1e300`) cannot be
/// honoured, and adding its request fails with
/// ``NotificationTriggerError/timeIntervalAboveMaximum(_:)``, as for the other bad values.
/// ``nextTriggerDate()`` is `nil` for such a trigger, and a saved request that holds one is
/// skipped (and logged) when the center reads its state back.
///
/// Repeats are counted from the moment the request was scheduled: the k-th delivery is at
/// schedule time + k × interval, so a late delivery never pushes the later ones back.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    private let storedTimeInterval: TimeInterval

    /// When the center scheduled the request; `nil` for a trigger that is not scheduled.
    let anchorDate: Date?

    /// The number of seconds between scheduling and delivery, and between repeats.
    open var timeInterval: TimeInterval { storedTimeInterval }

    init(timeInterval: TimeInterval, repeats: Bool, anchorDate: Date?) {
        storedTimeInterval = timeInterval
        self.anchorDate = anchorDate
        super.init(repeats: repeats)
    }

    /// Creates a trigger that fires `timeInterval` seconds after the request is scheduled, and
    /// every `timeInterval` seconds after that when `repeats` is true.
    public convenience init(timeInterval: TimeInterval, repeats: Bool) {
        self.init(timeInterval: timeInterval, repeats: repeats, anchorDate: nil)
    }

    /// When the trigger next fires: for a scheduled request the real next date, for a trigger not
    /// yet scheduled `timeInterval` seconds from now.
    open func nextTriggerDate() -> Date? {
        let now = Date()
        return nextFireDate(after: now, anchor: anchorDate ?? now)
    }

    // MARK: - What the center uses

    /// The same trigger, scheduled at `anchor`, so that ``nextTriggerDate()`` reports real dates.
    func anchored(at anchor: Date) -> UNTimeIntervalNotificationTrigger {
        UNTimeIntervalNotificationTrigger(timeInterval: timeInterval, repeats: repeats, anchorDate: anchor)
    }

    override func validate() throws(NotificationTriggerError) {
        guard timeInterval.isFinite else { throw .timeIntervalNotFinite(timeInterval) }
        guard timeInterval > 0 else { throw .timeIntervalNotPositive(timeInterval) }
        guard timeInterval <= NotificationTriggerError.maximumTimeInterval else { throw .timeIntervalAboveMaximum(timeInterval) }
        guard !repeats || timeInterval >= NotificationTriggerError.minimumRepeatingTimeInterval else {
            throw .repeatingTimeIntervalBelowMinimum(timeInterval)
        }
    }

    /// The first delivery strictly after `date` for a request scheduled at `anchor`: `anchor +
    /// timeInterval` once, or `anchor + k × timeInterval` for the smallest k ≥ 1 when repeating.
    ///
    /// `nil` when a one-shot trigger has already fired, or the interval is not finite and
    /// positive, or it is longer than ``NotificationTriggerError/maximumTimeInterval``, or a
    /// repeating one is shorter than `minimumRepeatingInterval`: Apple's 60 seconds for the
    /// center, less for a tool that delivers by itself (`notify --every 1s`).
    package func nextFireDate(
        after date: Date, anchor: Date,
        minimumRepeatingInterval: TimeInterval = NotificationTriggerError.minimumRepeatingTimeInterval
    ) -> Date? {
        guard timeInterval.isFinite, timeInterval > 0, timeInterval <= NotificationTriggerError.maximumTimeInterval,
              !repeats || timeInterval >= minimumRepeatingInterval
        else { return nil }
        let first = anchor.addingTimeInterval(timeInterval)
        guard repeats else { return first > date ? first : nil }
        guard first <= date else { return first }
        var count = (date.timeIntervalSince(anchor) / timeInterval).rounded(.down)
        var candidate = anchor.addingTimeInterval(count * timeInterval)
        while candidate <= date {
            count += 1
            let next = anchor.addingTimeInterval(count * timeInterval)
            // An interval too small to move a date this far from the anchor never gets past it.
            guard next > candidate else { return nil }
            candidate = next
        }
        return candidate
    }

    override func nextFireDate(after date: Date, anchor: Date, calendar: Calendar) -> Date? {
        nextFireDate(after: date, anchor: anchor)
    }

    // MARK: - NSObject, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNTimeIntervalNotificationTrigger else { return false }
        return other.timeInterval == timeInterval
    }

    open override var hash: Int { timeInterval.hashValue }

    public required init?(coder: NSCoder) {
        let snapshot = coder.decodeSnapshot(NotificationTriggerSnapshot.self)
        guard case .timeInterval(let interval, let repeats, let anchorDate)? = snapshot else { return nil }
        storedTimeInterval = interval
        self.anchorDate = anchorDate
        super.init(repeats: repeats)
    }
}
