// Seed 000 (000_e81921d1b0aa92ed.txt, "ios10 UserNotifications", 2016-10-17): the Swift samples
// that use UNUserNotificationCenter and its delegate, pasted as written with only the import
// line changed. Seed 004 is a scraped copy of the same post; its samples are these.
//
// Each sample is wrapped in a function (or, for delegate methods shown on their own, a class)
// so the harness can call it; the wrapper lines are marked "wrapper". Lines changed from the
// post are marked "changed:". Left out:
// - 远程推送: `UIApplication.shared.registerForRemoteNotifications()` and the AppDelegate
//   token callback need UIKit; the `Data.hexString` extension does not use the center.
// - 发送通知 (payloads), 截取并修改通知内容, 在通知中展示图片/视频, 自定义通知视图样式: APNs
//   payloads, a service extension target with URLSession downloads, bundle resources, UIKit
//   and a content extension target. The model-only parts are in UserNotificationsTests'
//   SeedSamplesCompile.swift.
// - 对通知进行响应, the first didReceive (it only calls `completionHandler()`): the second
//   one below is the same method with one `if` added.
// - `delay(_:_:)` and `UIAlertController.showConfirmAlertFromTopViewController(message:)` are
//   helpers of the post's demo app, not shown in the post; the harness provides them
//   (Harness/SampleEnvironment.swift).
import UserNotifications

// MARK: - 权限申请

func seed000RequestAuthorization() { // wrapper
UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge]) {
    granted, error in
    if granted {
        // 用户允许进行通知
    }
}
} // wrapper

// MARK: - 权限设置

func seed000CheckSettings() { // wrapper
UNUserNotificationCenter.current().getNotificationSettings {
    settings in 
    print(settings.authorizationStatus) // .authorized | .denied | .notDetermined
    print(settings.badgeSetting) // .enabled | .disabled | .notSupported
    // etc...
}
} // wrapper

// MARK: - 发送通知

func seed000SendFirstNotification() { // wrapper
// 1. 创建通知内容
let content = UNMutableNotificationContent()
content.title = "Time Interval Notification"
content.body = "My first notification"

// 2. 创建发送触发
let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)

// 3. 发送请求标识符
let requestIdentifier = "com.onevcat.usernotification.myFirstNotification"

// 4. 创建一个发送请求
let request = UNNotificationRequest(identifier: requestIdentifier, content: content, trigger: trigger)

// 将请求添加到发送中心
UNUserNotificationCenter.current().add(request) { error in
    if error == nil {
        print("Time Interval Notification scheduled: \(requestIdentifier)")
    }
}
} // wrapper

// MARK: - 取消和更新: 从通知中心移除一个展示过得通知

func seed000RemoveDeliveredNotification(content: UNNotificationContent) { // wrapper: `content` is the post's earlier content
let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false)
let identifier = "com.onevcat.usernotification.notificationWillBeRemovedAfterDisplayed"
let request = UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)

UNUserNotificationCenter.current().add(request) { error in
    if error != nil {
        print("Notification request added: \(identifier)")
    }
}

delay(4) {
    print("Notification request removed: \(identifier)")
    UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: [identifier])
}
} // wrapper

// MARK: - 取消和更新: 更新通知

func seed000UpdateNotification(request: UNNotificationRequest, identifier: String, newContent: UNNotificationContent) { // wrapper: the post's earlier `request`, `identifier`, `newContent`
// let request: UNNotificationRequest = ...
UNUserNotificationCenter.current().add(request) { error in
    if error != nil {
        print("Notification request added: \(identifier)")
    }
}

delay(2) {
    let newTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 1, repeats: false)

    // Add new request with the same identifier to update a notification.
    let newRequest = UNNotificationRequest(identifier: identifier, content:newContent, trigger: newTrigger)
    UNUserNotificationCenter.current().add(newRequest) { error in
        if error != nil {
            print("Notification request updated: \(identifier)")
        }
    }
}
} // wrapper

// MARK: - 应用内展示通知 + 处理actionable通知

// The post's demo declares these two enums (not shown in the post). Its category and action
// identifiers are the literals "saySomethingCategory" and "action.input"/"action.goodbye"/
// "action.cancel", so the raw values are those literals (the demo's enums used bare case names).
enum UserNotificationCategoryType: String {
    case saySomething = "saySomethingCategory"
}

enum SaySomethingCategoryAction: String {
    case input = "action.input"
    case goodbye = "action.goodbye"
    case none = "action.cancel"
}

class NotificationHandler: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, 
                       willPresent notification: UNNotification, 
                       withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) 
    {
        completionHandler([.alert, .sound])

        // 如果不想显示某个通知，可以直接用空 options 调用 completionHandler:
        // completionHandler([])
    }

// 处理actionable通知 (the post shows these two methods on their own; they belong to this class)
func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {

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
        // Only tap or clear. (You will not receive this callback when user clear your notification unless you set .customDismissAction as the option of category)
        text = ""
    }

    if !text.isEmpty {
        UIAlertController.showConfirmAlertFromTopViewController(message: "You just said \(text)")
    }
}
}

// MARK: - 对通知进行响应 (userInfo)

class UserInfoNotificationHandler: NSObject, UNUserNotificationCenterDelegate { // wrapper: the post shows the method on its own
func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
    if let name = response.notification.request.content.userInfo["name"] as? String {
        print("I know it's you! \(name)")
    }
    completionHandler()
}
} // wrapper

// MARK: - 注册Category

func registerNotificationCategory() { // changed: was `private` (the Swift 5 program calls it from its main.swift)
    let saySomethingCategory: UNNotificationCategory = {
        // 1
        let inputAction = UNTextInputNotificationAction(
            identifier: "action.input",
            title: "Input",
            options: [.foreground],
            textInputButtonTitle: "Send",
            textInputPlaceholder: "What do you want to say...")

        // 2
        let goodbyeAction = UNNotificationAction(
            identifier: "action.goodbye",
            title: "Goodbye",
            options: [.foreground])

        let cancelAction = UNNotificationAction(
            identifier: "action.cancel",
            title: "Cancel",
            options: [.destructive])

        // 3
        return UNNotificationCategory(identifier:"saySomethingCategory", actions: [inputAction, goodbyeAction, cancelAction], intentIdentifiers: [], options: [.customDismissAction])
    }()

    UNUserNotificationCenter.current().setNotificationCategories([saySomethingCategory])
}

// changed: the post's `class AppDelegate: UIResponder, UIApplicationDelegate` needs UIKit; the
// superclass and protocol are dropped and the class is main-actor isolated, as
// UIApplicationDelegate is.
@MainActor
class AppDelegate {
    let notificationHandler = NotificationHandler()
    // changed: `application(_ application: UIApplication, didFinishLaunchingWithOptions
    // launchOptions: [NSObject: AnyObject]?) -> Bool` takes UIKit's UIApplication; same body
    // (the post's second version, which registers the category first).
    func applicationDidFinishLaunching() -> Bool {
        registerNotificationCategory()
        UNUserNotificationCenter.current().delegate = notificationHandler
        return true
    }
}

// MARK: - 发送一个带有action的通知

func seed000MakeActionable(content: UNMutableNotificationContent) { // wrapper
content.categoryIdentifier = "saySomethingCategory"
} // wrapper
