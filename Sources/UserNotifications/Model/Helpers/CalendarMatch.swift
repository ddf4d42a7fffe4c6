/// The rule that finds the next date a calendar trigger's components match.
///
/// It asks Foundation with `.nextTime` and `.first`, so a wall-clock time skipped by a
/// daylight-saving jump resolves to the first moment after the gap, and a time that happens twice
/// matches only its first occurrence. `.nextTime` also "resolves" dates that do not exist, such
/// as 29 February in 2025, to the next day at midnight, which would move a birthday reminder by a
/// day and lose its hour. A lenient result is therefore kept only when it agrees with every
/// requested date component; otherwise the strict match, the next date that really exists, wins.
package struct CalendarMatch {
    private let components: DateComponents
    /// The calendar matched in: the components' own, in their time zone, else the fallback.
    package let calendar: Calendar

    /// Components that name a day rather than a time of day.
    private static let dayComponents: [Calendar.Component] = [
        .era, .year, .month, .day, .weekday, .weekdayOrdinal, .weekOfMonth, .weekOfYear, .yearForWeekOfYear,
    ]

    /// A match of `components`, in their own calendar and time zone where they name one, else in
    /// `fallbackCalendar`'s.
    package init(components: DateComponents, fallbackCalendar: Calendar) {
        var calendar = components.calendar ?? fallbackCalendar
        if let timeZone = components.timeZone {
            calendar.timeZone = timeZone
        }
        var matchable = components
        matchable.calendar = nil
        matchable.timeZone = nil
        self.components = matchable
        self.calendar = calendar
    }

    /// The first date strictly after `date` that matches, or `nil` when none does.
    package func nextDate(after date: Date) -> Date? {
        let lenient = match(after: date, policy: .nextTime)
        if let lenient, fallsOnRequestedDay(lenient) {
            return lenient
        }
        return match(after: date, policy: .strict)
    }

    private func match(after date: Date, policy: Calendar.MatchingPolicy) -> Date? {
        calendar.nextDate(
            after: date,
            matching: components,
            matchingPolicy: policy,
            repeatedTimePolicy: .first,
            direction: .forward
        )
    }

    private func fallsOnRequestedDay(_ date: Date) -> Bool {
        let requested = Self.dayComponents.filter { components.value(for: $0) != nil }
        let actual = calendar.dateComponents(Set(requested), from: date)
        return requested.allSatisfy { actual.value(for: $0) == components.value(for: $0) }
    }
}
