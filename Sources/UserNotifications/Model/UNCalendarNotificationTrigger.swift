/// Delivers a notification when the date and time match the given components, once or at every
/// match.
///
/// Set only the components that matter: `hour = 8` fires at the next 8:00, and with `repeats`
/// every day at 8:00. A `timeZone` or `calendar` set on the components is honoured; otherwise the
/// user's current calendar and time zone apply.
///
/// Daylight-saving changes: a time that does not exist on a spring-forward day fires at the
/// first moment after the gap (02:30 on 10 March 2024 in Los Angeles fires at 03:00), and a time
/// that happens twice on a fall-back day fires once, at its first occurrence. A date that does
/// not exist in some years, such as 29 February, fires only in the years that have it.
///
/// **Linux divergence:** each component must lie in the range a date can have (a year from 1
/// to 100,000, a month from 1 to 13, a weekday ordinal from 1 to 5, and so on). Foundation
/// answers some values outside them with a date, and for others never returns (a weekday
/// ordinal of 6, an ISO 8601 week of the month of 0), so the trigger matches no date instead:
/// ``nextTriggerDate()`` is `nil`, and adding its request fails with `UNError`
/// `notificationInvalidNoDate`, as for 30 February. A saved request that holds such components
/// is skipped (and logged) when the center reads its state back.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    private let storedDateComponents: DateComponents

    /// The date and time components to match.
    open var dateComponents: DateComponents { storedDateComponents }

    init(dateComponents: DateComponents, repeats: Bool) {
        storedDateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// Creates a trigger that fires at the next date matching `dateComponents`, and at every
    /// match after that when `repeats` is true.
    public convenience init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.init(dateComponents: dateComponents, repeats: repeats)
    }

    /// The next date after now that matches the components, or `nil` if none does.
    open func nextTriggerDate() -> Date? {
        nextFireDate(after: Date(), calendar: .current)
    }

    // MARK: - What the center uses

    /// The values each component may have: those a date can have in one of Foundation's
    /// calendars (a Hebrew leap year has 13 months; a Japanese era number exceeds 200), with
    /// years up to 100,000. A component outside its range matches no date. (`Int.max` is
    /// Foundation's mark of a component not set, so it is not a value here.)
    static let componentRanges: [(Calendar.Component, ClosedRange<Int>)] = [
        (.era, 0...1_000), (.year, 1...100_000), (.yearForWeekOfYear, 1...100_000), (.quarter, 1...4), (.month, 1...13),
        (.weekOfYear, 1...53), (.weekOfMonth, 1...6), (.weekdayOrdinal, 1...5), (.weekday, 1...7), (.day, 1...31),
        (.dayOfYear, 1...366), (.hour, 0...23), (.minute, 0...59), (.second, 0...60), (.nanosecond, 0...999_999_999),
    ]

    /// Whether every component is within ``componentRanges``.
    package var hasComponentsInRange: Bool {
        Self.componentRanges.allSatisfy { component, range in
            dateComponents.value(for: component).map(range.contains) ?? true
        }
    }

    /// The first date strictly after `date` that matches the components, with the components'
    /// own calendar and time zone taking precedence over `calendar`'s; `nil` when none does or
    /// a component is out of range (``hasComponentsInRange``).
    func nextFireDate(after date: Date, calendar: Calendar) -> Date? {
        guard hasComponentsInRange else { return nil }
        return CalendarMatch(components: dateComponents, fallbackCalendar: calendar).nextDate(after: date)
    }

    /// A repeating trigger fires at every match after `date`; a one-shot trigger only at the
    /// first match after `anchor`, the moment its request was scheduled.
    override func nextFireDate(after date: Date, anchor: Date, calendar: Calendar) -> Date? {
        nextFireDate(after: date, anchor: anchor, everyDays: 1, calendar: calendar)
    }

    /// The first delivery strictly after `date` when a repeating trigger on a time of day fires
    /// only on every `days`-th day: its first match after `anchor`, then its match on that day + k × `days`
    /// calendar days (k ≥ 1), so that `days` = 1 is every match. A one-shot trigger fires only at
    /// the first match after `anchor`, whatever `days` is.
    ///
    /// Days are counted in the components' calendar and time zone, so a time of day stays the
    /// same across daylight-saving changes, resolved as every match is (after a skipped hour, at
    /// the first of a repeated one). `nil` when there is no such date, or `days` is not positive.
    package func nextFireDate(after date: Date, anchor: Date, everyDays days: Int, calendar: Calendar) -> Date? {
        guard hasComponentsInRange else { return nil }
        guard repeats else {
            guard let only = nextFireDate(after: anchor, calendar: calendar), only > date else { return nil }
            return only
        }
        guard days > 1 else { return days == 1 ? nextFireDate(after: date, calendar: calendar) : nil }
        let match = CalendarMatch(components: dateComponents, fallbackCalendar: calendar)
        guard let first = match.nextDate(after: anchor) else { return nil }
        guard first <= date else { return first }
        let local = match.calendar
        let firstDay = local.startOfDay(for: first)
        let elapsed = local.dateComponents([.day], from: firstDay, to: local.startOfDay(for: date)).day ?? 0
        var count = max(1, elapsed / days)
        for _ in 0..<3 {
            let (offset, overflow) = count.multipliedReportingOverflow(by: days)
            guard !overflow, let day = local.date(byAdding: .day, value: offset, to: firstDay) else { return nil }
            let parts = local.dateComponents([.year, .month, .day], from: day)
            var wanted = dateComponents
            (wanted.year, wanted.month, wanted.day) = (parts.year, parts.month, parts.day)
            if let candidate = CalendarMatch(components: wanted, fallbackCalendar: calendar).nextDate(after: date) {
                return candidate
            }
            count += 1
        }
        return nil
    }

    // MARK: - NSObject, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNCalendarNotificationTrigger else { return false }
        return other.dateComponents == dateComponents
    }

    open override var hash: Int { dateComponents.hashValue }

    public required init?(coder: NSCoder) {
        let snapshot = coder.decodeSnapshot(NotificationTriggerSnapshot.self)
        guard case .calendar(let components, let repeats)? = snapshot else { return nil }
        storedDateComponents = components
        super.init(repeats: repeats)
    }
}
