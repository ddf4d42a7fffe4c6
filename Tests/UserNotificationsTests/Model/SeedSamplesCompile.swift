import Testing
import UserNotifications

// The Swift samples of the seed blog posts (2016–2017) on iOS 10 UserNotifications, pasted as
// written. This file imports nothing but UserNotifications and Testing: the samples must compile
// with only the import line they had on iOS. Adapted only where a sample needs UIKit,
// CoreLocation, URLSession, an extension target or UNUserNotificationCenter (which this model
// layer does not provide); each adaptation is marked. Samples that run end to end through the
// center, with the same checks, are in SeedSamplesTests (seed 000's category, seed 001's
// testBasicNotice) and are not repeated here.

@Suite("Seed samples compile and build what they describe")
struct SeedSamplesCompile {
    // Seed 000/004, "发送通知": content, trigger, identifier, request.
    @Test func firstTimeIntervalNotification() {
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

        #expect(request.identifier == "com.onevcat.usernotification.myFirstNotification")
        #expect(request.content.title == "Time Interval Notification")
        #expect(request.content.body == "My first notification")
        #expect((request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 5)
        #expect(request.trigger?.repeats == false)
    }

    // Seed 000/004, "取消和更新": a new request with the same identifier replaces the old one.
    @Test func updatingARequestReusesItsIdentifier() {
        let content = UNMutableNotificationContent()
        let newContent = UNMutableNotificationContent()
        newContent.body = "updated"

        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false)
        let identifier = "com.onevcat.usernotification.notificationWillBeRemovedAfterDisplayed"
        let request = UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)

        let newTrigger = UNTimeIntervalNotificationTrigger(timeInterval: 1, repeats: false)

        // Add new request with the same identifier to update a notification.
        let newRequest = UNNotificationRequest(identifier: identifier, content:newContent, trigger: newTrigger)

        #expect(newRequest.identifier == request.identifier)
        #expect(newRequest.content.body == "updated")
        #expect((newRequest.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 1)
    }

    // Seed 000/004: localized strings for title and body.
    @Test func localizedUserNotificationStringFallsBackToItsKey() {
        #expect(String.localizedUserNotificationString(forKey: "your_key", arguments: []) == "your_key")
    }

    // Seed 000/004, "应用内展示通知": the delegate's answer, as a free function (adapted: the
    // UNUserNotificationCenterDelegate protocol is not part of this layer).
    @Test func foregroundPresentationOptions() {
        func userNotificationCenter(willPresent notification: UNNotification,
                                    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
        {
            completionHandler([.alert, .sound])

            // 如果不想显示某个通知，可以直接用空 options 调用 completionHandler:
            // completionHandler([])
        }

        var presented: UNNotificationPresentationOptions = []
        userNotificationCenter(willPresent: DeliveredNotifications.notification()) { presented = $0 }
        #expect(presented == [.alert, .sound])
    }

    // Seed 000/004, "对通知进行响应": reading userInfo back from the response.
    @Test func responseCarriesUserInfo() {
        let content = UNMutableNotificationContent()
        content.title = "Time Interval Notification"
        content.body = "My first notification"
        content.userInfo = ["name": "onevcat"]
        let response = DeliveredNotifications.response(to: DeliveredNotifications.notification(content: content), actionIdentifier: UNNotificationDefaultActionIdentifier)

        var greeted = ""
        func userNotificationCenter(didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
            if let name = response.notification.request.content.userInfo["name"] as? String {
                greeted = "I know it's you! \(name)"
            }
            completionHandler()
        }
        userNotificationCenter(didReceive: response) {}

        #expect(greeted == "I know it's you! onevcat")
    }

    // Seed 000/004, "处理actionable通知" (adapted: the alert is replaced by returning the text).
    @Test func textInputResponseIsReadByCasting() {
        enum SaySomethingCategoryAction: String {
            case input = "action.input"
            case goodbye = "action.goodbye"
            case none = "action.none"
        }

        func handleSaySomthing(response: UNNotificationResponse) -> String {
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

            return text
        }

        let notification = DeliveredNotifications.notification()
        #expect(handleSaySomthing(response: DeliveredNotifications.textResponse(to: notification, actionIdentifier: "action.input", userText: "Hi there")) == "Hi there")
        #expect(handleSaySomthing(response: DeliveredNotifications.response(to: notification, actionIdentifier: "action.goodbye")) == "Goodbye")
        #expect(handleSaySomthing(response: DeliveredNotifications.response(to: notification, actionIdentifier: UNNotificationDismissActionIdentifier)).isEmpty)
    }

    // Seed 000/001/004, the service extension's didReceive (adapted: a function instead of an
    // override in a UNNotificationServiceExtension subclass).
    @Test func serviceExtensionEditsAMutableCopy() {
        var contentHandler: ((UNNotificationContent) -> Void)?
        var bestAttemptContent: UNMutableNotificationContent?
        var delivered: UNNotificationContent?

        func didReceive(_ request: UNNotificationRequest, withContentHandler handler: @escaping (UNNotificationContent) -> Void) {
            contentHandler = handler
            bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

            if let bestAttemptContent = bestAttemptContent {
                if request.identifier == "mutableContent" {
                    bestAttemptContent.body = "\(bestAttemptContent.body), Andrew"
                }
                contentHandler?(bestAttemptContent)
            }
        }

        let original = UNMutableNotificationContent()
        original.title = "Greetings"
        original.body = "Long time no see"
        let request = UNNotificationRequest(identifier: "mutableContent", content: original, trigger: nil)
        didReceive(request) { delivered = $0 }

        #expect(delivered?.body == "Long time no see, Andrew")
        #expect(request.content.body == "Long time no see")
    }

    // Seed 000/004, "在通知中展示图片/视频": as written the image comes from the app bundle,
    // which the test bundle does not have; the second half uses a downloaded file (adapted: the
    // URLSession download is replaced by a file written here).
    @Test func imageAttachments() throws {
        let content = UNMutableNotificationContent()
        content.title = "Image Notification"
        content.body = "Show me an image!"

        if let imageURL = Bundle.main.url(forResource: "image", withExtension: "jpg"),
           let attachment = try? UNNotificationAttachment(identifier: "imageAttachment", url: imageURL, options: nil)
        {
            content.attachments = [attachment]
        }
        #expect(content.attachments.isEmpty)

        let directory = try TemporaryDirectory()
        let localURL = try directory.file(named: "background-cover.jpg", header: FileHeader.jpeg)
        let bestAttemptContent = content
        do {
            let attachment = try UNNotificationAttachment(identifier: "image_downloaded", url: localURL, options: nil)
            bestAttemptContent.attachments = [attachment]
        } catch {
            print(error)
        }
        #expect(bestAttemptContent.attachments.first?.identifier == "image_downloaded")
        #expect(bestAttemptContent.attachments.first?.type == "public.jpeg")
    }

    // Seed 001, willPresent telling remote from local notifications by the trigger's class.
    @Test func remoteNotificationsAreTheOnesWithAPushTrigger() {
        var answers: [String] = []
        func userNotificationCenter(willPresent notification: UNNotification, withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
            if (notification.request.trigger?.isKind(of: UNPushNotificationTrigger.self))! {
                answers.append("远程推送")
                completionHandler([.badge, .alert, .sound])
            } else {
                answers.append("本地推送")
                if notification.request.content.categoryIdentifier == "approvalView" || notification.request.content.categoryIdentifier == "approvalDetailView" {
                    completionHandler([.badge, .alert, .sound])
                }
            }
        }

        let approval = UNMutableNotificationContent()
        approval.categoryIdentifier = "approvalView"
        var options: [UNNotificationPresentationOptions] = []
        userNotificationCenter(willPresent: DeliveredNotifications.pushNotification(content: approval)) { options.append($0) }
        userNotificationCenter(willPresent: DeliveredNotifications.notification(content: approval, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false))) { options.append($0) }

        #expect(answers == ["远程推送", "本地推送"])
        #expect(options == [[.badge, .alert, .sound], [.badge, .alert, .sound]])
    }

    // Seed 001, setupCategories (adapted: returns the set instead of registering it).
    @Test func approvalCategories() {
        func setupCategories() -> Set<UNNotificationCategory> {
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
            return set
        }

        let categories = setupCategories()
        let approval = categories.first { $0.identifier == "approvalView" }

        #expect(categories.count == 5)
        #expect(Set(categories.map(\.identifier)) == ["imageView", "messageView", "videoView", "approvalView", "approvalDetailView"])
        #expect(approval?.actions.map(\.identifier) == ["agree", "refuse"])
        #expect(approval?.actions.last?.options == [.foreground, .destructive])
        #expect((approval?.actions.first as? UNTextInputNotificationAction)?.textInputPlaceholder == "同意理由")
    }

    // Seed 002, an Objective-C action in its Swift spelling (adapted: translated from ObjC).
    @Test func callDriverAction() {
        let callDriverAction = UNNotificationAction(identifier: "xxx", title: "呼叫司机", options: .foreground)
        #expect(callDriverAction.title == "呼叫司机" && callDriverAction.options == .foreground)
    }
}
