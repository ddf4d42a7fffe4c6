// SaySomething: seed 000's actionable notification, ported with only the import line.
//
// A category with a text input, a "Goodbye" and a destructive "Cancel" action, and
// `.customDismissAction`; the delegate prints what the person said. With no notification
// server on the session bus (an SSH session, a container, CI), the notification is shown in
// this terminal instead, and answered from the keyboard.
import Foundation
import ExampleSupport
import UserNotifications

enum UserNotificationCategoryType: String {
    case saySomething = "saySomethingCategory"
}

enum SaySomethingCategoryAction: String {
    case input = "action.input"
    case goodbye = "action.goodbye"
    case none = "action.cancel"
}

final class NotificationHandler: NSObject, UNUserNotificationCenterDelegate {
    private(set) var answer: String?

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .list, .sound])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        if let category = UserNotificationCategoryType(rawValue: response.notification.request.content.categoryIdentifier) {
            switch category {
            case .saySomething:
                handleSaySomthing(response: response)
            }
        }
        completionHandler()
    }

    private func handleSaySomthing(response: UNNotificationResponse) {
        let text: String
        if let actionType = SaySomethingCategoryAction(rawValue: response.actionIdentifier) {
            switch actionType {
            case .input: text = (response as! UNTextInputNotificationResponse).userText
            case .goodbye: text = "Goodbye"
            case .none: text = ""
            }
        } else {
            // Only tap or clear (a clear arrives because the category has .customDismissAction).
            text = ""
        }
        answer = text.isEmpty ? "(\(Self.describe(response.actionIdentifier)))" : "You just said \(text)"
        print(answer!)
    }

    private static func describe(_ identifier: String) -> String {
        switch identifier {
        case UNNotificationDefaultActionIdentifier: "you clicked the notification"
        case UNNotificationDismissActionIdentifier: "you dismissed the notification"
        case SaySomethingCategoryAction.none.rawValue: "you cancelled"
        default: identifier
        }
    }
}

private func registerNotificationCategory() {
    let saySomethingCategory: UNNotificationCategory = {
        let inputAction = UNTextInputNotificationAction(
            identifier: "action.input",
            title: "Input",
            options: [.foreground],
            textInputButtonTitle: "Send",
            textInputPlaceholder: "What do you want to say...")
        let goodbyeAction = UNNotificationAction(
            identifier: "action.goodbye",
            title: "Goodbye",
            options: [.foreground])
        let cancelAction = UNNotificationAction(
            identifier: "action.cancel",
            title: "Cancel",
            options: [.destructive])
        return UNNotificationCategory(
            identifier: "saySomethingCategory", actions: [inputAction, goodbyeAction, cancelAction],
            intentIdentifiers: [], options: [.customDismissAction])
    }()
    UNUserNotificationCenter.current().setNotificationCategories([saySomethingCategory])
}

@MainActor
func run() async throws -> Int32 {
    let fallback = try await DemoPresenter.prepare(appID: "org.desktopnotifications.SaySomething", name: "Say Something")
    let center = UNUserNotificationCenter.current()
    let notificationHandler = NotificationHandler()
    center.delegate = notificationHandler
    registerNotificationCategory()
    _ = try await center.requestAuthorization(options: [.alert, .sound])

    let content = UNMutableNotificationContent()
    content.title = "Time Interval Notification"
    content.body = "Please say something"
    content.categoryIdentifier = "saySomethingCategory"
    content.sound = UNNotificationSound.default()
    try await center.add(UNNotificationRequest(identifier: "com.onevcat.usernotification.saySomething", content: content, trigger: nil))
    print(fallback ? "Answer in this terminal." : "Answer the notification on your desktop (or wait \(DemoPresenter.timeoutSeconds) s).")

    let deadline = ContinuousClock.now + .seconds(DemoPresenter.timeoutSeconds)
    while notificationHandler.answer == nil, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
        if await center.deliveredNotifications().isEmpty, notificationHandler.answer == nil {
            try await Task.sleep(for: .milliseconds(400))
            if notificationHandler.answer == nil {
                print("The notification closed without an answer.")
                return 0
            }
        }
    }
    if notificationHandler.answer == nil { print("No answer within \(DemoPresenter.timeoutSeconds) s.") }
    return 0
}

do {
    await DemoPresenter.exit(try await run())
} catch {
    FileHandle.standardError.write(Data("SaySomething: \(error)\n".utf8))
    await DemoPresenter.exit(1)
}
