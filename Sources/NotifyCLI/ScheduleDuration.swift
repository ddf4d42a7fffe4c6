import Foundation

// This file uses Foundation only, and no other file of `notify`: the NotifyCommandTests target
// compiles it too (through a symbolic link), so that its parsing and date arithmetic are
// tested as pure functions with a fixed "now" and time zone. The `notify` executable target
// cannot be imported by a test target without changing Package.swift.

/// Why a `--in`, `--at` or `--every` value cannot be used; ``description`` is the message
/// printed on standard error (notify exits 1, as for notify-send's own usage errors).
struct ScheduleError: Error, Hashable, Sendable, CustomStringConvertible {
    let description: String
}

/// A length of time given to `--in` or `--every`: `90s`, `10m`, `1h30m`, `2d`, `1.5h`, or a
/// plain number of seconds.
///
/// Units are `d`, `h`, `m` and `s` (any case), each at most once and largest first; a
/// number without a unit is allowed only alone. A duration written in whole days only (`1d`,
/// `7d`) is kept as a number of calendar days: `--every 1d` repeats at the same time of day
/// across daylight-saving changes, as a repeating `UNCalendarNotificationTrigger` does, where
/// `--every 24h` repeats every 86,400 elapsed seconds, as a `UNTimeIntervalNotificationTrigger`
/// does.
struct ScheduleDuration: Hashable, Sendable, Codable {
    /// The length in seconds (for days, the nominal 86,400 seconds a day).
    var seconds: Double
    /// The number of calendar days, when the duration was written in whole days only.
    var days: Int?

    /// The longest duration accepted: ten years.
    static let maximumSeconds: Double = 3650 * 86_400

    /// A duration of `seconds` elapsed seconds.
    init(seconds: Double) {
        self.seconds = seconds
        days = nil
    }

    /// A duration of `days` calendar days.
    init(days: Int) {
        seconds = Double(days) * 86_400
        self.days = days
    }

    /// Reads `text`, as given to `option` (named in the error messages).
    ///
    /// - Throws: ``ScheduleError`` for garbage, zero, a negative duration, or one over
    ///   ``maximumSeconds``.
    static func parse(_ text: String, option: String) throws(ScheduleError) -> ScheduleDuration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let syntax = ScheduleError(description: "\(option) needs a duration such as 90s, 10m, 1h30m or 2d (a plain number is seconds), not \"\(text)\".")
        if trimmed.hasPrefix("-") {
            throw ScheduleError(description: "\(option) needs a duration above 0, not \"\(text)\".")
        }
        let units: [(Character, Double)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var total = 0.0
        var daysOnly = true
        var wholeDays = 0
        var nextUnit = 0
        var rest = Substring(trimmed.lowercased())
        guard !rest.isEmpty else { throw syntax }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".",
                  let value = Double(number)
            else { throw syntax }
            rest = rest.dropFirst(number.count)
            guard let unitCharacter = rest.first else {
                // A bare number: seconds, and only when it is the whole duration.
                guard total == 0 && nextUnit == 0 else { throw syntax }
                total = value
                daysOnly = false
                break
            }
            guard let index = units.firstIndex(where: { $0.0 == unitCharacter }), index >= nextUnit else { throw syntax }
            rest = rest.dropFirst()
            nextUnit = index + 1
            total += value * units[index].1
            if index == 0, value == value.rounded(.down), value < 1e6 {
                wholeDays = Int(value)
            } else if value != 0 || index == 0 {
                daysOnly = false
            }
        }
        guard total.isFinite else { throw syntax }
        guard total > 0 else {
            throw ScheduleError(description: "\(option) needs a duration above 0, not \"\(text)\".")
        }
        guard total <= maximumSeconds else {
            throw ScheduleError(description: "\(option) accepts at most 3650d (ten years), not \"\(text)\".")
        }
        if daysOnly && wholeDays > 0 && Double(wholeDays) * 86_400 == total { return ScheduleDuration(days: wholeDays) }
        return ScheduleDuration(seconds: total)
    }

    /// The duration as `--every` accepts it back: `2d` for calendar days, else hours,
    /// minutes and seconds (`36h`, `1h30m`, `0.5s`).
    var text: String {
        if let days { return "\(days)d" }
        var remaining = seconds
        var parts = ""
        let hours = (remaining / 3_600).rounded(.down)
        remaining -= hours * 3_600
        let minutes = (remaining / 60).rounded(.down)
        remaining -= minutes * 60
        if hours > 0 { parts += "\(Int(hours))h" }
        if minutes > 0 { parts += "\(Int(minutes))m" }
        if remaining > 0 || parts.isEmpty {
            let rounded = (remaining * 1000).rounded() / 1000
            parts += rounded == rounded.rounded(.down) ? "\(Int(rounded))s" : "\(rounded)s"
        }
        return parts
    }
}

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

/// When a scheduled `notify` shows its notification: the first time, and how it repeats.
///
/// The rules are Apple's triggers', applied by a process that stays to deliver:
///
/// - `--in D` fires once, `D` after it was given, as a `UNTimeIntervalNotificationTrigger`.
/// - `--at HH:MM` fires at the next time the local clock shows it, as a
///   `UNCalendarNotificationTrigger` matching the hour, minute and second. `--at` with a date
///   fires at that date; a date already past is an error.
/// - `--every E` in hours, minutes or seconds repeats every `E` elapsed seconds after the first
///   time: the k-th repeat is at first + k × E, as a repeating
///   `UNTimeIntervalNotificationTrigger` counts them, so a late delivery (after a suspend)
///   never pushes the later ones back. Alone, it first fires `E` from now.
/// - `--every Nd` repeats every N calendar days at the same local time of day (the time asked
///   for with `--at`, else the time of the first delivery), across daylight-saving changes: a
///   time skipped by the change fires at the first moment after the gap, a time that happens
///   twice fires at its first occurrence, as `UNCalendarNotificationTrigger` resolves them.
///
/// Repeats missed while the machine slept are not made up: one delivery comes on resume, and
/// the next is the first one after it.
///
/// Calendar matching is not done here but by a `match` function given by the caller: the first
/// date after the present moment that matches date components (which carry their calendar and
/// time zone). `notify` answers it with `UNCalendarNotificationTrigger(dateMatching:repeats:)`
/// and its `nextTriggerDate()`, so the daylight-saving rules are the library's; tests answer
/// it with the same Foundation query at a fixed "now".
struct ScheduleRule: Hashable, Sendable, Codable {
    /// The first delivery.
    var first: Date
    /// The repeat interval; `nil` for a single delivery.
    var every: ScheduleDuration?
    /// The local time of day of calendar-day repeats, as seconds after midnight.
    var secondOfDay: Int
    /// The time zone the time of day is read in (an identifier such as `Europe/Paris`).
    var timeZone: String

    /// The first date after the present moment that matches the components.
    typealias Match = (DateComponents) -> Date?

    /// The shortest `--every` accepted.
    static let minimumRepeatSeconds: Double = 1

    /// The dates a rule can name: from 1970 to the end of 9999, the years `--at` reads.
    static let plausibleDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Whether every value is one that ``make(delay:time:every:now:calendar:match:)`` can
    /// give (a rule read from a file may hold anything).
    var isPlausible: Bool {
        guard Self.plausibleDates.contains(first), (0..<86_400).contains(secondOfDay) else { return false }
        guard let every else { return true }
        let longestDays = Int(ScheduleDuration.maximumSeconds / 86_400)
        return (Self.minimumRepeatSeconds...ScheduleDuration.maximumSeconds).contains(every.seconds)
            && every.days.map { (1...longestDays).contains($0) && Double($0) * 86_400 == every.seconds } ?? true
    }

    /// The rule for the options given, or `nil` when none was given.
    ///
    /// - Parameters:
    ///   - delay: `--in`, unparsed.
    ///   - time: `--at`, unparsed.
    ///   - every: `--every`, unparsed.
    ///   - now: The present moment.
    ///   - calendar: The calendar and time zone that local times are read in.
    ///   - match: The first date after `now` that matches date components.
    /// - Throws: ``ScheduleError`` with the message to print.
    static func make(
        delay: String?, time: String?, every: String?, now: Date, calendar: Calendar, match: Match
    ) throws(ScheduleError) -> ScheduleRule? {
        guard delay != nil || time != nil || every != nil else { return nil }
        if delay != nil && time != nil {
            throw ScheduleError(description: "--in and --at cannot be used together: --in counts from now, --at names a time.")
        }
        let interval = try every.map { text throws(ScheduleError) in try ScheduleDuration.parse(text, option: "--every") }
        if let interval, interval.seconds < minimumRepeatSeconds {
            throw ScheduleError(description: "--every needs at least 1 second, not \"\(every ?? "")\".")
        }
        func components(_ second: Int, on day: DateComponents? = nil) -> DateComponents {
            var wanted = day ?? DateComponents()
            wanted.calendar = calendar
            wanted.timeZone = calendar.timeZone
            wanted.hour = second / 3_600
            wanted.minute = second / 60 % 60
            wanted.second = second % 60
            return wanted
        }
        func secondOfDay(of date: Date) -> Int {
            let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
            return (parts.hour ?? 0) * 3_600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
        }
        let first: Date
        var wallTime: Int?
        if let delay {
            first = now.addingTimeInterval(try ScheduleDuration.parse(delay, option: "--in").seconds)
        } else if let time {
            switch try ScheduleTime.parse(time, option: "--at") {
            case .timeOfDay(let hour, let minute, let second):
                wallTime = hour * 3_600 + minute * 60 + second
                guard let next = match(components(wallTime!)) else {
                    throw ScheduleError(description: "--at \(time): no such time in the calendar.")
                }
                first = next
            case .local(let year, let month, let day, let hour, let minute, let second):
                wallTime = hour * 3_600 + minute * 60 + second
                guard let date = match(components(wallTime!, on: DateComponents(year: year, month: month, day: day))), date > now else {
                    throw ScheduleError(description: "--at \(time) is in the past.")
                }
                first = date
            case .instant(let date):
                guard date > now else { throw ScheduleError(description: "--at \(time) is in the past.") }
                first = date
            }
        } else if let interval, let days = interval.days {
            // --every Nd alone: N days from now, at the present time of day.
            let wall = secondOfDay(of: now)
            wallTime = wall
            guard let day = calendar.date(byAdding: .day, value: days, to: now),
                  let date = match(components(wall, on: calendar.dateComponents([.year, .month, .day], from: day)))
            else { throw ScheduleError(description: "--every \(every ?? ""): no such date in the calendar.") }
            first = date
        } else {
            first = now.addingTimeInterval(interval?.seconds ?? 0)
        }
        return ScheduleRule(first: first, every: interval, secondOfDay: wallTime ?? secondOfDay(of: first), timeZone: calendar.timeZone.identifier)
    }

    /// The first delivery strictly after `date`, or `nil` when a single delivery is past.
    ///
    /// - Parameters:
    ///   - date: A moment not before the present one (the present itself, or the delivery
    ///     that just came).
    ///   - calendar: The calendar; its time zone is replaced by ``timeZone`` when that is known.
    ///   - match: The first date after the present moment that matches date components.
    func nextFire(after date: Date, calendar: Calendar, match: Match) -> Date? {
        if first > date { return first }
        guard let every else { return nil }
        guard let days = every.days else {
            // anchor + k × interval for the smallest k ≥ 1 after `date`, as the time-interval
            // trigger counts its repeats.
            var count = max(1, (date.timeIntervalSince(first) / every.seconds).rounded(.down))
            var candidate = first.addingTimeInterval(count * every.seconds)
            while candidate <= date {
                count += 1
                candidate = first.addingTimeInterval(count * every.seconds)
            }
            return candidate
        }
        var local = calendar
        if let zone = TimeZone(identifier: timeZone) { local.timeZone = zone }
        // The k-th repeat falls on the first delivery's day + k × N days, at the time of day.
        let firstDay = local.startOfDay(for: first)
        let elapsedDays = local.dateComponents([.day], from: firstDay, to: local.startOfDay(for: date)).day ?? 0
        var count = max(1, elapsedDays / days)
        for _ in 0..<4 {
            guard let day = local.date(byAdding: .day, value: count * days, to: firstDay) else { return nil }
            var wanted = local.dateComponents([.year, .month, .day], from: day)
            wanted.calendar = local
            wanted.timeZone = local.timeZone
            wanted.hour = secondOfDay / 3_600
            wanted.minute = secondOfDay / 60 % 60
            wanted.second = secondOfDay % 60
            if let candidate = match(wanted), candidate > date { return candidate }
            count += 1
        }
        return nil
    }

    /// The delivery a waiting process is waiting for at `now`: the first one while it is
    /// ahead, else the next repeat (or, for a single delivery being shown, the first one).
    func upcoming(at now: Date, calendar: Calendar, match: Match) -> Date {
        if first > now || every == nil { return first }
        return nextFire(after: now, calendar: calendar, match: match) ?? first
    }
}
