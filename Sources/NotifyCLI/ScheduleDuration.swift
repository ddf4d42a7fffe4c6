import Foundation

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
