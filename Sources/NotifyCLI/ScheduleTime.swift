import Foundation

/// A time given to `--at`.
enum ScheduleTime: Hashable, Sendable {
    /// `HH:MM` or `HH:MM:SS`: the next time the local clock shows it, today or tomorrow.
    case timeOfDay(hour: Int, minute: Int, second: Int)
    /// An ISO 8601 date and time without an offset (`2026-12-24T18:30`): local time.
    case local(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
    /// An ISO 8601 date and time with `Z` or an offset (`2026-12-24T18:30:00+01:00`).
    case instant(Date)

    /// Reads `text`, as given to `option` (named in the error messages).
    ///
    /// Accepted: `H:MM`, `HH:MM`, `HH:MM:SS`, and `YYYY-MM-DDTHH:MM[:SS[.fraction]]`, with a
    /// space allowed for the `T`, followed by nothing (local time), `Z`, or an offset
    /// `±HH:MM`, `±HHMM` or `±HH`. A fraction of a second is dropped.
    static func parse(_ text: String, option: String) throws(ScheduleError) -> ScheduleTime {
        let syntax = ScheduleError(description: "\(option) needs a time such as 18:30, 18:30:15 or 2026-12-24T18:30 (ISO 8601, optionally with seconds and an offset), not \"\(text)\".")
        var scanner = Scan(text.trimmingCharacters(in: .whitespaces))
        if let clock = scanner.clockTime(), scanner.isAtEnd {
            guard clock.isValid else { throw syntax }
            return .timeOfDay(hour: clock.hour, minute: clock.minute, second: clock.second)
        }
        scanner = Scan(text.trimmingCharacters(in: .whitespaces))
        guard let year = scanner.digits(exactly: 4), scanner.take("-"),
              let month = scanner.digits(exactly: 2), scanner.take("-"),
              let day = scanner.digits(exactly: 2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let clock = scanner.clockTime(requireTwoDigitHour: true), clock.isValid
        else { throw syntax }
        if scanner.take(".") || scanner.take(",") {
            guard scanner.digits(atLeast: 1) != nil else { throw syntax }
        }
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else {
            throw ScheduleError(description: "\(option): \"\(text)\" is not a date that exists.")
        }
        guard year >= 1970 else { throw ScheduleError(description: "\(option) \(text) is in the past.") }
        if scanner.isAtEnd {
            return .local(year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: clock.second)
        }
        var offset = 0
        if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else {
            let sign: Int
            if scanner.take("+") { sign = 1 } else if scanner.take("-") { sign = -1 } else { throw syntax }
            guard let hours = scanner.digits(exactly: 2), hours <= 18 else { throw syntax }
            var minutes = 0
            if !scanner.isAtEnd {
                _ = scanner.take(":")
                guard let value = scanner.digits(exactly: 2), value < 60 else { throw syntax }
                minutes = value
            }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard scanner.isAtEnd else { throw syntax }
        // Proleptic Gregorian arithmetic in UTC: no calendar or time zone is involved.
        let days = Self.daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + clock.hour * 3_600 + clock.minute * 60 + clock.second - offset
        return .instant(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The number of days in `month` of `year`, in the Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A tiny scanner over the characters of a time.
    private struct Scan {
        private var rest: Substring

        init(_ text: String) { rest = Substring(text) }

        var isAtEnd: Bool { rest.isEmpty }

        mutating func take(_ character: Character) -> Bool {
            guard rest.first == character else { return false }
            rest = rest.dropFirst()
            return true
        }

        mutating func digits(exactly count: Int) -> Int? {
            let run = rest.prefix { $0.isASCII && $0.isNumber }
            guard run.count >= count else { return nil }
            let taken = run.prefix(count)
            rest = rest.dropFirst(count)
            return Int(taken)
        }

        mutating func digits(atLeast count: Int) -> Int? {
            let run = rest.prefix { $0.isASCII && $0.isNumber }
            guard run.count >= count else { return nil }
            rest = rest.dropFirst(run.count)
            return run.count > 18 ? 0 : Int(run)
        }

        /// `H:MM[:SS]`, or `HH:MM[:SS]` when a two-digit hour is required.
        mutating func clockTime(requireTwoDigitHour: Bool = false) -> (hour: Int, minute: Int, second: Int, isValid: Bool)? {
            let run = rest.prefix { $0.isASCII && $0.isNumber }
            guard run.count == 2 || (run.count == 1 && !requireTwoDigitHour), let hour = Int(run) else { return nil }
            rest = rest.dropFirst(run.count)
            guard take(":"), let minute = digits(exactly: 2) else { return nil }
            var second = 0
            if take(":") {
                guard let value = digits(exactly: 2) else { return nil }
                second = value
            }
            if let next = rest.first, next.isNumber { return nil }
            return (hour, minute, second, hour < 24 && minute < 60 && second < 60)
        }
    }
}
