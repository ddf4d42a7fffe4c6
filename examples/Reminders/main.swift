// Reminders: scheduled requests (seed 001): a weekly calendar reminder and a one-shot
// interval reminder, then the pending list, then a cancellation.
//
//   swift run Reminders            lists what is pending and cancels the weekly one
//   DEMO_TIMEOUT=15 swift run Reminders   also waits for the 10 s reminder to fire
import ExampleSupport
import Foundation
import UserNotifications

@MainActor
func run() async throws {
    _ = try await DemoPresenter.prepare(appID: "org.desktopnotifications.Reminders", name: "Reminders")
    let center = UNUserNotificationCenter.current()

    let weekly = UNMutableNotificationContent()
    weekly.title = "Weekly review"
    weekly.body = "Monday, 09:00"
    var components = DateComponents()
    components.weekday = 2
    components.hour = 9
    let calendarTrigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
    try await center.add(UNNotificationRequest(identifier: "weekly-review", content: weekly, trigger: calendarTrigger))

    let soon = UNMutableNotificationContent()
    soon.title = "Tea"
    soon.body = "It has steeped for 10 seconds"
    soon.sound = .default
    let intervalTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 10, repeats: false)
    try await center.add(UNNotificationRequest(identifier: "tea", content: soon, trigger: intervalTrigger))

    for request in await center.pendingNotificationRequests() {
        let next: Date?
        switch request.trigger {
        case let trigger as UNCalendarNotificationTrigger: next = trigger.nextTriggerDate()
        case let trigger as UNTimeIntervalNotificationTrigger: next = trigger.nextTriggerDate()
        default: next = nil
        }
        print("pending: \(request.identifier) next at \(next.map { "\($0)" } ?? "-")")
    }

    center.removePendingNotificationRequests(withIdentifiers: ["weekly-review"])
    print("after cancelling the weekly review: \(await center.pendingNotificationRequests().map(\.identifier))")

    let wait = min(DemoPresenter.timeoutSeconds, 30)
    let deadline = ContinuousClock.now + .seconds(wait)
    while await center.deliveredNotifications().isEmpty, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(100))
    }
    print("delivered: \(await center.deliveredNotifications().map(\.request.identifier))")
}

do {
    try await run()
    await DemoPresenter.exit(0)
} catch {
    FileHandle.standardError.write(Data("Reminders: \(error)\n".utf8))
    await DemoPresenter.exit(1)
}
