// Seed 000's app as a Swift 5 program writes it: top-level code in main.swift, the post's
// delegate class made right here (nonisolated code), completion handlers, then the main run
// loop. This target is built in the Swift 5 language mode; the sample files beside this one
// are links to the ones SeedSamplesTests compiles in Swift 6 mode, so both modes compile the
// same text. SeedSamplesTests runs this program against a private bus: it prints
// "alert: MESSAGE (main thread)" when the post's handler shows its alert, and exits.
import Foundation
import UserNotifications

let handler = NotificationHandler()
UNUserNotificationCenter.current().delegate = handler
registerNotificationCategory()
seed000RequestAuthorization()

let content = UNMutableNotificationContent()
content.title = "Say something"
content.body = "Reply, say goodbye, or cancel"
seed000MakeActionable(content: content)
UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "saySomething", content: content, trigger: nil)) { error in
    if let error = error {
        print("error: \(error)")
        exit(1)
    }
    print("posted")
}

_ = Timer.scheduledTimer(withTimeInterval: 0.02, repeats: true) { _ in
    guard let message = Alerts.all.first else { return }
    let thread = Alerts.onMainThread.contains(message) ? "main thread" : "another thread"
    print("alert: \(message) (\(thread))")
    exit(0)
}
RunLoop.main.run(until: Date(timeIntervalSinceNow: 30))
print("no response within 30 s")
exit(2)
