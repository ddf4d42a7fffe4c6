import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications
import UserNotifications

extension NotifyCommand {
    /// The schedule that `--in`, `--at` and `--every` ask for, read in the Gregorian calendar
    /// (as ISO 8601 dates are) and the local time zone; `nil` when none of them was given.
    ///
    /// - Parameter now: The moment `--in` and `--every` count from.
    /// - Throws: `ExitCode(1)` after printing the message, for a bad duration or time.
    func makeSchedule(now: Date = Date()) throws -> Schedule? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        do {
            return try Schedule.make(delay: delay, time: at, every: every, now: now, calendar: calendar)
        } catch {
            Terminal.error(error.description + "\n")
            throw ExitCode(1)
        }
    }
}

/// A notification shown later, by this process: `notify --in`, `--at` or `--every`.
///
/// The process registers a ``ScheduledRecord`` (so `notify pending` lists it and `notify
/// cancel` can stop it), waits for the wall clock to reach the fire time, then hands the plan
/// to ``Delivery``, exactly as an unscheduled `notify` would; with `--every` it then waits for
/// the next time, and so on.
///
/// The wait is the library's `PendingScheduler` on `SystemNotificationClock`, as an engine
/// waits for a trigger: a `timerfd` on the real-time clock, armed at the absolute fire time,
/// which keeps counting through a suspend and rings when the clock is set (the alarm is then
/// set again, for the same instant). Nothing polls.
///
/// `SIGINT` (Control-C) and `SIGTERM` before the fire time end the process with status 0,
/// showing nothing, as Control-C ends notify's `--wait` with status 0. While a notification
/// is shown and waited on (`-w`, `-A`, `--reply`), either signal ends that wait as Control-C
/// does (the notification is closed), and no repeat follows. `notify cancel` removes the
/// record and sends `SIGTERM`; the process then ends silently. The record goes away however
/// the process ends: removed on the way out, and, after a `SIGKILL`, found stale (its lock is
/// free) and removed by the next `notify pending`, `notify cancel` or scheduled `notify`.
struct ScheduledDelivery: Sendable {
    /// What to show and how to wait, as for an unscheduled `notify`.
    let plan: Delivery.Plan
    /// When to show it.
    let schedule: Schedule
    /// Whether to fall back to the terminal without a bus or server.
    let fallback: Bool

    private enum Wake: Sendable {
        /// The scheduler found the delivery due.
        case due
        case signal
    }

    /// Waits and delivers; returns the exit status.
    func run() async -> Int32 {
        // The signals are watched before the record exists, so notify cancel's SIGTERM never
        // meets the default action.
        let signals = SignalWatcher([SIGINT, SIGTERM])
        defer { signals.cancel() }
        let (wakes, feed) = AsyncStream.makeStream(of: Wake.self)
        let listener = Task {
            for await _ in signals.signals { feed.yield(.signal) }
        }
        defer { listener.cancel() }
        let plan = plan
        let registration: ScheduledRecords.Registration
        do {
            registration = try ScheduledRecords.register { id in
                ScheduledRecord(
                    format: ScheduledRecord.currentFormat, id: id, pid: getpid(), summary: plan.request.summary,
                    appName: plan.request.appName, identifier: plan.identifier, created: Date(), schedule: schedule)
            }
        } catch {
            Terminal.error("Cannot schedule the notification: \(error)\n")
            return 1
        }
        defer { registration.remove() }

        let clock = SystemNotificationClock()
        guard var target = schedule.first else {
            Terminal.error("No time matches the schedule.\n")
            return 1
        }
        // The library's scheduler, as an engine waits for a trigger: one alarm at the wall-clock
        // instant, set again when the clock is set, firing once when the clock passes it.
        let scheduler = PendingScheduler<Int>(clock: clock) { _, _ in feed.yield(.due) }
        defer { scheduler.cancelAll() }
        scheduler.schedule(0, at: target)
        for await wake in wakes {
            switch wake {
            case .signal:
                // No record: notify cancel took it, and wants no message.
                if registration.isPresent { Terminal.error("Scheduled notification cancelled\n") }
                return 0
            case .due:
                guard schedule.trigger.repeats else {
                    // The last delivery: the record goes first, unless notify cancel took it.
                    guard registration.claim() else { return 0 }
                    return await Delivery(plan: plan).run(bus: .session, fallback: fallback, interruptions: [SIGINT, SIGTERM])
                }
                guard registration.isPresent else { return 0 }
                _ = await Delivery(plan: plan).run(bus: .session, fallback: fallback, interruptions: [SIGINT, SIGTERM])
                // Repeats missed during a long wait (or a suspend) are not made up.
                let after = max(clock.now, target)
                guard let next = schedule.nextFireDate(after: after) else {
                    Terminal.error("No later time matches the schedule; stopping.\n")
                    return 1
                }
                target = next
                scheduler.schedule(0, at: target)
            }
        }
        return 0
    }
}
