// Seed 001 (001_fbbdfa0322e2ce45.txt, "iOS10通知及扩展", 2017-01-02): the Swift samples that use
// UNUserNotificationCenter and its delegate, pasted as written with only the import line
// changed. Wrapper lines are marked "wrapper", changed lines "changed:". The location trigger
// uses this package's minimal CoreLocation module (`import CoreLocation`, as on Apple
// platforms). Left out:
// - The service extension's didReceive (extension target, URLSession download, UIImage) and
//   serviceExtensionTimeWillExpire; the content extension's didReceive(_:) and
//   didReceive(_:completionHandler:) (UserNotificationsUI, UIKit views, extension target).
//
// Seeds 002 and 003 have no Swift samples (their code is Objective-C), so they have no file
// here.
import CoreLocation
import UserNotifications

// MARK: - 发起通知: 本地通知基础

// 本地通知基础
func testBasicNotice() {
    /// content
    let notify = UNMutableNotificationContent()
    notify.title = "美办"
    notify.subtitle = "云办公事业部"
    notify.body = "你收到了一条消息"
    notify.badge = 1
    // changed: the post has these two statements on one line with no `;` (a lost line break),
    // which does not compile.
    notify.sound = UNNotificationSound.default()
    notify.userInfo = ["name": "美办"]

    /// 触发器
    // 日期触发器
    var dateComponents = DateComponents()
    dateComponents.weekday = 4 // 周三触发
    dateComponents.hour = 12 // 12点
    let dateTrigger = UNCalendarNotificationTrigger(dateMatching: dateComponents, repeats: true)

    // 延时触发器
    let timeTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false)

    // 位置触发器
    let cen = CLLocationCoordinate2D(latitude: 39.990465, longitude: 116.333386)
    let region = CLCircularRegion(center: cen, radius: 1000, identifier: "center")
    region.notifyOnEntry = true;
    region.notifyOnExit = false;
    let locationTrigger = UNLocationNotificationTrigger(region: region, repeats: true)

    /// request
    let timeRequest = UNNotificationRequest(identifier: "meiban", content: notify, trigger: timeTrigger)
    let calendarRequest = UNNotificationRequest(identifier: "meiban1", content: notify, trigger: dateTrigger)
    let locationRequest = UNNotificationRequest(identifier: "meiban2", content: notify, trigger: locationTrigger)
    UNUserNotificationCenter.current().add(timeRequest) { (error) in
        if (error != nil) {
            print("错误:\(String(describing: error))") // changed: was "\(error)", an optional interpolated (a warning in Swift 5+); same text
        }
    }
    UNUserNotificationCenter.current().add(calendarRequest) { (error) in
        if (error != nil) {
            print("错误:\(String(describing: error))") // changed: as above
        }
    }
    UNUserNotificationCenter.current().add(locationRequest) { (error) in
        if (error != nil) {
            print("错误:\(String(describing: error))") // changed: as above
        }
    }
}

// MARK: - 接收通知

// wrapper: the post shows the two delegate methods on their own (in its AppDelegate).
class Seed001AppDelegate: NSObject, UNUserNotificationCenterDelegate {
// 弹通知之前的操作 只有在应用在前台时会调用
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification, withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        if (notification.request.trigger?.isKind(of: UNPushNotificationTrigger.self))! {
            print("远程推送")
            completionHandler([.badge, .alert, .sound])
        } else {
            print("本地推送")
            if notification.request.content.categoryIdentifier == "approvalView" || notification.request.content.categoryIdentifier == "approvalDetailView" {
                completionHandler([.badge, .alert, .sound])
            }
        }
    }

// 点开通知或者点击通知的Action会调用
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
        if (response.notification.request.trigger?.isKind(of: UNPushNotificationTrigger.self))! {
            print("远程推送")
            completionHandler()
        } else {
            print("本地推送")

            completionHandler()
        }
    }
} // wrapper

// MARK: - 管理通知: 查找通知

func seed001ManageNotifications() { // wrapper
// 删除所有尚未发出的通知
UNUserNotificationCenter.current().removeAllPendingNotificationRequests()
// 删除所有已经发出的通知
UNUserNotificationCenter.current().removeAllDeliveredNotifications()
// 根据id移除已经发出的指定通知
UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: ["haha"])
// 获取所有已经发出的通知
UNUserNotificationCenter.current().getDeliveredNotifications { (notice) in
    print(notice)
}
// 获取所有尚未发出的通知
UNUserNotificationCenter.current().getPendingNotificationRequests { (notice) in
    print(notice)
}
} // wrapper

// MARK: - UNNotificationContentExtension: categories

// changed: was `extension AppDelegate` (the post's UIKit app delegate); here it extends the
// class holding this post's delegate methods.
extension Seed001AppDelegate {
    func setupCategories() {
        let transforAction = UNNotificationAction(identifier: "transfor", title: "转发", options: [.foreground])
        let agreeAction = UNTextInputNotificationAction(identifier: "agree", title: "同意", options: [.foreground], textInputButtonTitle: "同意", textInputPlaceholder: "同意理由")
        let refuseAction = UNTextInputNotificationAction(identifier: "refuse", title: "拒绝", options: [.foreground, .destructive], textInputButtonTitle: "拒绝", textInputPlaceholder: "拒绝理由")
        let collectAction = UNNotificationAction(identifier: "collect", title: "收藏", options: [.foreground])
        let detailAction = UNNotificationAction(identifier: "detail", title: "查看详情", options: [.foreground])
        let saveAction = UNNotificationAction(identifier: "save", title: "保存附件", options: [.foreground])
        let saveToAction = UNNotificationAction(identifier: "saveTo", title: "归档", options: [.foreground, .destructive])
        let actionTextField = UNTextInputNotificationAction(identifier: "textFiled", title: "回复", options: [.foreground], textInputButtonTitle: "发送", textInputPlaceholder: "回复曹烨")
        let imageCat = UNNotificationCategory(identifier: "imageView", actions: [actionTextField, detailAction, saveAction], intentIdentifiers: ["actionTextField", "detailAction", "SaveAction"], options: [])
        let messageCat = UNNotificationCategory(identifier: "messageView", actions: [actionTextField, detailAction], intentIdentifiers: ["actionTextField", "detailAction"], options: [])
        let videoCat = UNNotificationCategory(identifier: "videoView", actions: [actionTextField, transforAction, collectAction], intentIdentifiers: ["actionTextField", "transforAction", "collectAction"], options: [])
        let approvalCat = UNNotificationCategory(identifier: "approvalView", actions: [agreeAction, refuseAction], intentIdentifiers: ["actionTextField", "detailAction"], options: [])
        let approvalDetailCat = UNNotificationCategory(identifier: "approvalDetailView", actions: [detailAction, saveToAction], intentIdentifiers: ["detailAction", "saveToAction"], options: [])

        let set: Set<UNNotificationCategory> = [imageCat, messageCat, videoCat, approvalCat, approvalDetailCat]
        UNUserNotificationCenter.current().setNotificationCategories(set)
    }
}
