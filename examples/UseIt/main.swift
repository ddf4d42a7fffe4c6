import UserNotifications

// Who the app is on the desktop; the id also names its desktop entry, org.example.Hello.desktop.
let identity = ApplicationIdentity(id: "org.example.Hello", displayName: "Hello", icon: "face-smile")
UNUserNotificationCenter.configure(identity: identity)

final class Listener: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        print("You chose", response.actionIdentifier)
        exit(0)
    }
}

let center = UNUserNotificationCenter.current()
let listener = Listener()  // the center holds its delegate weakly
center.delegate = listener
let wave = UNNotificationAction(identifier: "wave", title: "Wave back", options: [])
center.setNotificationCategories([
    UNNotificationCategory(identifier: "greeting", actions: [wave], intentIdentifiers: [], options: [.customDismissAction])
])
let content = UNMutableNotificationContent()
content.title = "Hello"
content.body = "From Swift, on Linux"
content.categoryIdentifier = "greeting"
try await post(UNNotificationRequest(identifier: "hello", content: content, trigger: nil), to: center)
try await Task.sleep(for: .seconds(60))  // a minute to answer; closing the notification answers too

// In top-level code Swift picks the completion-handler form of `center.add(request)` (it prefers
// the synchronous overload there); inside an async function it is the async one, which throws.
func post(_ request: UNNotificationRequest, to center: UNUserNotificationCenter) async throws {
    try await center.add(request)
}
