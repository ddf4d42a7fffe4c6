// RemindMeLater: a reminder that outlives its app.
//
//   RemindMeLater [--after SECONDS]          schedules the reminder through the agent, exits
//   RemindMeLater --relaunched [--log FILE]  what the agent starts when the button is clicked
//
// It registers the category `reminder` with the button "Done", schedules a reminder SECONDS
// ahead (default 5) in the per-user agent (`notify agent`), and exits. The agent shows the
// reminder when it is due; a click on "Done" makes the agent start the app again by its
// desktop entry's Exec (`RemindMeLater --relaunched`), and its delegate prints the response it
// is handed. An app the agent starts has its standard output on /dev/null, so with --log the
// lines also go to FILE. `make demo-agent` runs the whole flow in this terminal.
import Foundation
import UserNotifications

/// The app's identity: its desktop entry is `org.desktopnotifications.RemindMeLater.desktop`.
let identity = ApplicationIdentity(id: "org.desktopnotifications.RemindMeLater", displayName: "Remind Me Later", icon: "alarm-symbolic")

/// The value after `flag` on the command line.
func option(_ flag: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Prints `line`, and appends it to the --log file when there is one.
func say(_ line: String) {
    print(line)
    guard let path = option("--log") else { return }
    if let handle = FileHandle(forWritingAtPath: path) {
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        handle.closeFile()
    } else {
        _ = FileManager.default.createFile(atPath: path, contents: Data((line + "\n").utf8))
    }
}

/// Prints the response it is handed, then lets the app end.
final class ResponsePrinter: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let done: AsyncStream<Void>.Continuation

    init(done: AsyncStream<Void>.Continuation) {
        self.done = done
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        let request = response.notification.request
        say("Relaunched by a click: action \(response.actionIdentifier) on \"\(request.content.title)\" (\(request.identifier))")
        done.yield()
    }
}

UNUserNotificationCenter.configure(identity: identity, engine: .agent)
let center = UNUserNotificationCenter.current()

if CommandLine.arguments.contains("--relaunched") {
    let (responses, done) = AsyncStream.makeStream(of: Void.self)
    let printer = ResponsePrinter(done: done)
    // The queued response is handed over once a delegate is set.
    center.delegate = printer
    let timeout = Task {
        try await Task.sleep(for: .seconds(30))
        done.finish()
    }
    var received = false
    for await _ in responses {
        received = true
        break
    }
    timeout.cancel()
    withExtendedLifetime(printer) {}
    if !received { say("Relaunched, but no response came within 30 s.") }
    exit(received ? 0 : 1)
}

guard await center.engineKind == .agent else {
    say("No notification agent is reachable (start one with: notify agent --foreground).")
    exit(1)
}
/// Registers the category `reminder` (the button "Done") and schedules the reminder.
func scheduleReminder(after seconds: TimeInterval, on center: UNUserNotificationCenter) async throws {
    let done = UNNotificationAction(identifier: "done", title: "Done")
    center.setNotificationCategories([UNNotificationCategory(identifier: "reminder", actions: [done], intentIdentifiers: [])])
    let content = UNMutableNotificationContent()
    content.title = "Stretch your legs"
    content.body = "You asked to be reminded. Click Done when you have."
    content.categoryIdentifier = "reminder"
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)
    try await center.add(UNNotificationRequest(identifier: "stretch", content: content, trigger: trigger))
}

let seconds = max(1, Double(option("--after") ?? "5") ?? 5)
do {
    try await scheduleReminder(after: seconds, on: center)
} catch {
    say("The agent did not take the reminder: \(error)")
    exit(1)
}
say("Scheduled \"Stretch your legs\" \(Int(seconds)) s from now in the agent; exiting. Click Done to bring this app back.")
exit(0)
