import Foundation
import UserNotifications

extension Schedule {
    /// The dates a schedule can name: from 1970 to the end of 9999, the years `--at` reads.
    static let plausibleDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Whether every value is one that ``make(delay:time:every:now:calendar:)`` can give (a
    /// schedule read from a file may hold anything, and the date arithmetic on a value out of
    /// these ranges could overflow or never end).
    var isPlausible: Bool {
        guard Self.plausibleDates.contains(anchor) else { return false }
        let longest = ScheduleDuration.maximumSeconds
        switch trigger {
        case .timeInterval(let seconds, let repeats, let anchorDate):
            let shortest = repeats ? Self.minimumRepeatSeconds : .leastNonzeroMagnitude
            return everyDays == nil && (shortest...longest).contains(seconds)
                && anchorDate.map(Self.plausibleDates.contains) ?? true
        case .calendar(let components, let repeats):
            let days = everyDays.map { (1...Int(longest / 86_400)).contains($0) }
            return Self.isPlausible(components) && (repeats ? days == true : days == nil)
        case .push, .location:
            return false
        }
    }

    /// Whether `components` name a time of day, on a date from 1970 to 9999 or on none, and
    /// nothing else but a calendar and a time zone.
    private static func isPlausible(_ components: DateComponents) -> Bool {
        guard let hour = components.hour, let minute = components.minute, let second = components.second,
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return false }
        let day = [components.year, components.month, components.day]
        if day.contains(where: { $0 != nil }) {
            guard let year = components.year, let month = components.month, let date = components.day,
                  (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(date)
            else { return false }
        }
        let known = DateComponents(
            calendar: components.calendar, timeZone: components.timeZone, year: components.year, month: components.month,
            day: components.day, hour: hour, minute: minute, second: second)
        return known == components
    }
}
