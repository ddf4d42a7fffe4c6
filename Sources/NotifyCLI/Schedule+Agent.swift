import Foundation
import UserNotifications

extension Schedule {
    /// The library trigger that fires this schedule when a center adds it at `now`, or `nil`
    /// when none does.
    ///
    /// A center anchors a trigger at the moment it is added, so one trigger serves when the
    /// schedule's deliveries are the trigger's own counted from `now`: `--in`, `--at`,
    /// `--every` alone, `--every 1d` with `--at` a time of day. A repeat anchored elsewhere
    /// (`--every` after `--in` or `--at` with another first delivery) and `--every Nd` for N
    /// above 1 have no such trigger.
    func agentTrigger(now: Date) -> UNNotificationTrigger? {
        guard (everyDays ?? 1) == 1 else { return nil }
        let fromNow = Schedule(trigger: trigger, anchor: now, everyDays: everyDays)
        guard let first, let same = fromNow.first, abs(same.timeIntervalSince(first)) < 0.001 else { return nil }
        if trigger.repeats {
            guard let second = nextFireDate(after: first), let sameSecond = fromNow.nextFireDate(after: same),
                  abs(second.timeIntervalSince(sameSecond)) < 0.001 else { return nil }
        }
        return trigger.makeTrigger()
    }
}
