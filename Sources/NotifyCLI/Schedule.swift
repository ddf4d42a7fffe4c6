import Foundation
import UserNotifications

/// When a scheduled `notify` shows its notification: one of the library's triggers and the
/// moment it counts from, so that every date (the waiting process's, `notify pending`'s) is
/// the trigger's own next fire date, as the notification center computes it.
///
/// - `--in D` alone is a `UNTimeIntervalNotificationTrigger(timeInterval: D, repeats: false)`.
/// - `--at HH:MM` is a `UNCalendarNotificationTrigger` on the hour, minute and second: the next
///   time the local clock shows it. `--at` with a date matches that date (local time, or the
///   instant in UTC when an offset is given); a date already past is an error.
/// - `--every E` in hours, minutes or seconds is a repeating `UNTimeIntervalNotificationTrigger`,
///   whose k-th delivery is at anchor + k × E, so a late delivery (after a suspend) never
///   pushes the later ones back. Alone it first fires `E` from now; after `--in` or `--at` its
///   anchor is the first delivery less `E`. Repeats as short as 1 second are allowed.
/// - `--every Nd` is a repeating `UNCalendarNotificationTrigger` on the local time of day (the
///   time asked for with `--at`, else the time of the first delivery) that fires on every N-th
///   day: the same time of day across daylight-saving changes, a time skipped by the change at
///   the first moment after the gap, a time that happens twice at its first occurrence.
///
/// Repeats missed while the machine slept are not made up: one delivery comes on resume, and
/// the next is the first one after it.
struct Schedule: Codable, Hashable, Sendable {
    /// The trigger, in the library's stored form.
    var trigger: NotificationTriggerSnapshot
    /// The moment the trigger counts from: its first delivery is its first fire date after it.
    var anchor: Date
    /// For a repeating calendar trigger, the number of days from one delivery to the next.
    var everyDays: Int?

    /// The shortest `--every` accepted.
    static let minimumRepeatSeconds: Double = 1

    /// The first delivery strictly after `date`, or `nil` when a single delivery is past.
    func nextFireDate(after date: Date) -> Date? {
        switch trigger.makeTrigger() {
        case let interval as UNTimeIntervalNotificationTrigger:
            interval.nextFireDate(after: date, anchor: anchor, minimumRepeatingInterval: Self.minimumRepeatSeconds)
        case let calendar as UNCalendarNotificationTrigger:
            calendar.nextFireDate(after: date, anchor: anchor, everyDays: everyDays ?? 1, calendar: .current)
        default:
            nil
        }
    }

    /// The first delivery.
    var first: Date? { nextFireDate(after: anchor) }

    /// The delivery a waiting process is waiting for at `now`: the next one, or, for a single
    /// delivery being shown, that one.
    func upcoming(at now: Date) -> Date? {
        nextFireDate(after: now) ?? first
    }

    /// How often it repeats, as `--every` accepts it (`1h30m`, `2d`); `nil` for once.
    var every: String? {
        switch trigger {
        case .timeInterval(let seconds, repeats: true, _): ScheduleDuration(seconds: seconds).text
        case .calendar(_, repeats: true): "\(everyDays ?? 1)d"
        default: nil
        }
    }

    /// The schedule for the options given, or `nil` when none was given.
    ///
    /// - Parameters:
    ///   - delay: `--in`, unparsed.
    ///   - time: `--at`, unparsed.
    ///   - every: `--every`, unparsed.
    ///   - now: The present moment.
    ///   - calendar: The calendar and time zone that local times are read in.
    /// - Throws: ``ScheduleError`` with the message to print.
    static func make(
        delay: String?, time: String?, every: String?, now: Date, calendar: Calendar
    ) throws(ScheduleError) -> Schedule? {
        if delay != nil && time != nil {
            throw ScheduleError(description: "--in and --at cannot be used together: --in counts from now, --at names a time.")
        }
        let interval = try every.map { text throws(ScheduleError) in try ScheduleDuration.parse(text, option: "--every") }
        if let interval, interval.seconds < minimumRepeatSeconds {
            throw ScheduleError(description: "--every needs at least 1 second, not \"\(every ?? "")\".")
        }
        let once = try single(delay: delay, time: time, now: now, calendar: calendar)
        guard let interval else { return once?.schedule }
        let schedule: Schedule
        if let days = interval.days {
            // On a whole second, so that a time of day of it is matched at it, not before.
            let first = once.map { Date(timeIntervalSince1970: $0.first.timeIntervalSince1970.rounded(.up)) }
            // The time of day asked for, else that of the first delivery, else the present one.
            let wall = once?.timeOfDay ?? calendar.dateComponents([.hour, .minute, .second], from: first ?? now)
            var components = DateComponents(hour: wall.hour, minute: wall.minute, second: wall.second)
            components.calendar = calendar
            components.timeZone = calendar.timeZone
            // The first match after a second before the first delivery is that delivery; alone,
            // the first match after N - 1 days from now is N days from now.
            guard let anchor = first?.addingTimeInterval(-1) ?? calendar.date(byAdding: .day, value: days - 1, to: now) else {
                throw ScheduleError(description: "--every \(every ?? ""): no such date in the calendar.")
            }
            let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
            schedule = Schedule(trigger: NotificationTriggerSnapshot(trigger), anchor: anchor, everyDays: days)
        } else {
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval.seconds, repeats: true)
            let anchor = once?.first.addingTimeInterval(-interval.seconds) ?? now
            schedule = Schedule(trigger: NotificationTriggerSnapshot(trigger), anchor: anchor)
        }
        guard schedule.first != nil else {
            throw ScheduleError(description: "--every \(every ?? ""): no such date in the calendar.")
        }
        return schedule
    }

    /// What `--in` or `--at` ask for alone: a single delivery, its date, and the time of day
    /// `--at` names; `nil` when neither was given.
    private static func single(
        delay: String?, time: String?, now: Date, calendar: Calendar
    ) throws(ScheduleError) -> (schedule: Schedule, first: Date, timeOfDay: DateComponents?)? {
        if let delay {
            let seconds = try ScheduleDuration.parse(delay, option: "--in").seconds
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)
            return (Schedule(trigger: NotificationTriggerSnapshot(trigger), anchor: now), now.addingTimeInterval(seconds), nil)
        }
        guard let time else { return nil }
        var components = DateComponents()
        components.calendar = calendar
        components.timeZone = calendar.timeZone
        var timeOfDay: DateComponents?
        switch try ScheduleTime.parse(time, option: "--at") {
        case .timeOfDay(let hour, let minute, let second):
            (components.hour, components.minute, components.second) = (hour, minute, second)
            timeOfDay = components
        case .local(let year, let month, let day, let hour, let minute, let second):
            (components.year, components.month, components.day) = (year, month, day)
            (components.hour, components.minute, components.second) = (hour, minute, second)
            timeOfDay = DateComponents(hour: hour, minute: minute, second: second)
        case .instant(let date):
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0) ?? utc.timeZone
            components = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            components.calendar = utc
            components.timeZone = utc.timeZone
        }
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        let schedule = Schedule(trigger: NotificationTriggerSnapshot(trigger), anchor: now)
        guard let first = schedule.first else {
            let isClock = components.year == nil
            throw ScheduleError(description: isClock ? "--at \(time): no such time in the calendar." : "--at \(time) is in the past.")
        }
        return (schedule, first, timeOfDay)
    }
}
