/// The stored form of a trigger, one case per kind.
package enum NotificationTriggerSnapshot: Codable, Hashable, Sendable {
    /// A `UNPushNotificationTrigger`.
    case push
    /// A `UNTimeIntervalNotificationTrigger`, with the moment it was scheduled, if it was.
    case timeInterval(TimeInterval, repeats: Bool, anchorDate: Date?)
    /// A `UNCalendarNotificationTrigger`.
    case calendar(DateComponents, repeats: Bool)
    /// A `UNLocationNotificationTrigger`.
    case location(LocationTriggerRegion, repeats: Bool)

    /// The stored form of `trigger`.
    package init(_ trigger: UNNotificationTrigger) {
        switch trigger {
        case let interval as UNTimeIntervalNotificationTrigger:
            self = .timeInterval(interval.timeInterval, repeats: interval.repeats, anchorDate: interval.anchorDate)
        case let calendar as UNCalendarNotificationTrigger:
            self = .calendar(calendar.dateComponents, repeats: calendar.repeats)
        case let location as UNLocationNotificationTrigger:
            self = .location(location.regionRecord, repeats: location.repeats)
        default:
            self = .push
        }
    }

    /// Whether the trigger repeats.
    package var repeats: Bool {
        switch self {
        case .push: false
        case .timeInterval(_, let repeats, _), .calendar(_, let repeats), .location(_, let repeats): repeats
        }
    }

    /// The trigger this is the stored form of.
    package func makeTrigger() -> UNNotificationTrigger {
        switch self {
        case .push:
            UNPushNotificationTrigger()
        case .timeInterval(let interval, let repeats, let anchorDate):
            UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats, anchorDate: anchorDate)
        case .calendar(let components, let repeats):
            UNCalendarNotificationTrigger(dateComponents: components, repeats: repeats)
        case .location(let region, let repeats):
            UNLocationNotificationTrigger(locationRegion: region, repeats: repeats)
        }
    }
}
