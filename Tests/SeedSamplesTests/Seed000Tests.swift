import Testing
import UserNotifications
import UserNotificationsTesting

extension SeedSamplesTests {
    /// Seed 000 ("ios10 UserNotifications"; seed 004 is a copy of the same post).
    @Suite("Seed 000/004: ios10 UserNotifications")
    @MainActor
    struct Seed000 {
        @Test("权限申请, 权限设置: permission is granted when a server runs, and the settings say so")
        func permissionAndSettings() async throws {
            let seed = try await SeedCenter.shared()
            _ = try await seed.reset()
            // No other test of this target asks for permission.
            #expect(await seed.center.notificationSettings().authorizationStatus == .notDetermined)

            seed000RequestAuthorization()
            #expect(await waitUntil { await seed.center.notificationSettings().authorizationStatus == .authorized })

            seed000CheckSettings()
            let printed = await Console.waitForLines(count: 2) { _ in true }
            #expect(printed == ["authorized", "enabled"])
        }

        @Test("发送通知: the request waits 5 s for its trigger, then reaches the server with its title and body")
        func sendFirstNotification() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            #expect(app.applicationDidFinishLaunching())
            let identifier = "com.onevcat.usernotification.myFirstNotification"

            seed000SendFirstNotification()
            let scheduled = await Console.waitForLines { $0 == "Time Interval Notification scheduled: \(identifier)" }
            #expect(scheduled.count == 1)
            let pending = await seed.center.pendingNotificationRequests()
            #expect(pending.map(\.identifier) == [identifier])
            #expect((pending.first?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 5)

            seed.clock.advance(by: 4)
            #expect(seed.posted(since: baseline).isEmpty)
            #expect(seed.clock.alarmDeadlines == [seed.clock.now.addingTimeInterval(1)])

            seed.clock.advance(by: 1)
            let posted = await seed.waitForPosted(count: 1, since: baseline)
            try #require(posted.count == 1)
            #expect(posted[0].summary == "Time Interval Notification")
            #expect(posted[0].body == "My first notification")
            #expect(posted[0].replacesID == 0)
            // NotificationHandler's [.alert, .sound]: kept in the list (not transient); the
            // content has no sound, so the server is asked for silence.
            #expect(posted[0].transient == nil)
            #expect(posted[0].suppressSound == true)
            #expect(await seed.center.pendingNotificationRequests().isEmpty)
            #expect(await seed.waitForDelivered([identifier]))
            withExtendedLifetime(app) {}
        }

        @Test("取消和更新: delay(4) after a 3 s trigger withdraws the shown notification (CloseNotification)")
        func removeDeliveredNotification() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            _ = app.applicationDidFinishLaunching()
            let identifier = "com.onevcat.usernotification.notificationWillBeRemovedAfterDisplayed"
            let content = UNMutableNotificationContent()
            content.title = "Time Interval Notification"
            content.body = "This notification will be removed"

            seed000RemoveDeliveredNotification(content: content)
            #expect(await waitUntil { await seed.center.pendingNotificationRequests().map(\.identifier) == [identifier] })
            #expect(DelayedBlocks.shared.delays == [4])

            seed.clock.advance(by: 3)
            let posted = await seed.waitForPosted(count: 1, since: baseline)
            let shown = try #require(posted.first)
            #expect(shown.body == "This notification will be removed")
            #expect(await seed.waitForDelivered([identifier]))

            seed.clock.advance(by: 1)
            DelayedBlocks.shared.runAll()
            #expect(Console.all.contains("Notification request removed: \(identifier)"))
            #expect(await seed.waitForClose(of: shown.id, since: baseline))
            #expect(await seed.center.deliveredNotifications().isEmpty)
            #expect(await waitUntil { !seed.server.liveIDs.contains(shown.id) })
            // The post prints "added" only when `error != nil`; adding succeeded.
            #expect(!Console.all.contains { $0.hasPrefix("Notification request added") })
            withExtendedLifetime(app) {}
        }

        @Test("取消和更新, as timed in the post: the update 2 s in replaces the pending request; only the new content is shown")
        func updatePendingNotification() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            _ = app.applicationDidFinishLaunching()
            let (identifier, request, newContent) = Self.scoreRequests("com.onevcat.usernotification.pendingUpdate")

            seed000UpdateNotification(request: request, identifier: identifier, newContent: newContent)
            #expect(await waitUntil { await seed.center.pendingNotificationRequests().map(\.identifier) == [identifier] })
            #expect(DelayedBlocks.shared.delays == [2])

            seed.clock.advance(by: 2)
            DelayedBlocks.shared.runAll()
            #expect(await waitUntil {
                let pending = await seed.center.pendingNotificationRequests()
                return pending.count == 1 && (pending.first?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 1
            })
            #expect(await seed.center.pendingNotificationRequests().first?.content.body == "1 : 0")

            seed.clock.advance(by: 1)
            let posted = await seed.waitForPosted(count: 1, since: baseline)
            try #require(posted.count == 1)
            #expect(posted[0].body == "1 : 0")
            #expect(posted[0].replacesID == 0)
            // The first request (due at the same moment) was replaced, so nothing else comes.
            #expect(await seed.waitForPosted(count: 2, since: baseline, timeout: .milliseconds(300)).count == 1)
            #expect(await seed.center.pendingNotificationRequests().isEmpty)
            #expect(!Console.all.contains { $0.hasPrefix("Notification request") })
            withExtendedLifetime(app) {}
        }

        @Test("取消和更新, once shown: the same identifier updates the notification in place (replaces_id)")
        func updateDeliveredNotification() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            _ = app.applicationDidFinishLaunching()
            let (identifier, request, newContent) = Self.scoreRequests("com.onevcat.usernotification.deliveredUpdate")

            seed000UpdateNotification(request: request, identifier: identifier, newContent: newContent)
            #expect(await waitUntil { await seed.center.pendingNotificationRequests().map(\.identifier) == [identifier] })

            // Let the first request show before the delayed update runs.
            seed.clock.advance(by: 3)
            let first = try #require(await seed.waitForPosted(count: 1, since: baseline).first)
            #expect(first.body == "0 : 0")
            try #require(await seed.waitForDelivered([identifier]))

            DelayedBlocks.shared.runAll()
            #expect(await waitUntil { await seed.center.pendingNotificationRequests().map(\.identifier) == [identifier] })
            seed.clock.advance(by: 1)
            let posted = await seed.waitForPosted(count: 2, since: baseline)
            try #require(posted.count == 2)
            #expect(posted[1].replacesID == first.id)
            #expect(posted[1].id == first.id)
            #expect(posted[1].body == "1 : 0")
            #expect(seed.server.liveIDs == [first.id])
            #expect(await waitUntil { await seed.center.deliveredNotifications().first?.request.content.body == "1 : 0" })
            #expect(await seed.center.deliveredNotifications().map(\.request.identifier) == [identifier])
            withExtendedLifetime(app) {}
        }

        @Test("对通知进行响应 (seed 004's content): a click brings userInfo back to the delegate")
        func userInfoComesBackOnClick() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let handler = UserInfoNotificationHandler()
            seed.center.delegate = handler

            let content = seed004ContentWithUserInfo()
            try await seed.center.add(UNNotificationRequest(identifier: "userInfo", content: content, trigger: nil))
            let shown = try #require(await seed.waitForPosted(count: 1, since: baseline).first)
            #expect(shown.summary == "Time Interval Notification")

            seed.server.invokeAction(id: shown.id)
            let greeted = await Console.waitForLines { $0.hasPrefix("I know it's you!") }
            #expect(greeted == ["I know it's you! onevcat"])
            withExtendedLifetime(handler) {}
        }

        @Test("注册Category, 发送一个带有action的通知: the category's actions reach the server as buttons and a reply field")
        func actionableNotificationCarriesActions() async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            #expect(app.applicationDidFinishLaunching())
            #expect(seed.center.delegate === app.notificationHandler)

            let categories = await seed.center.notificationCategories()
            try #require(categories.count == 1)
            let category = try #require(categories.first)
            #expect(category.identifier == "saySomethingCategory")
            #expect(category.actions.map(\.identifier) == ["action.input", "action.goodbye", "action.cancel"])
            #expect(category.actions.map(\.options) == [.foreground, .foreground, .destructive])
            #expect(category.options == .customDismissAction)

            try await Self.postActionable(identifier: "saySomething")
            let shown = try #require(await seed.waitForPosted(count: 1, since: baseline).first)
            // KDE: the text input becomes the inline reply field, the others buttons, in order.
            #expect(shown.actionKeys == ["default", "inline-reply", "action.goodbye", "action.cancel"])
            #expect(shown.actionLabels == ["", "Input", "Goodbye", "Cancel"])
            #expect(shown.replyPlaceholder == "What do you want to say...")
            #expect(shown.replyButton == "Send")
            withExtendedLifetime(app) {}
        }

        /// What the person does with the actionable notification, and what the post's
        /// handleSaySomthing then shows.
        enum Gesture: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case replies, saysGoodbye, cancels, clicks, dismisses

            var testDescription: String { rawValue }

            var actionIdentifier: String {
                switch self {
                case .replies: "action.input"
                case .saysGoodbye: "action.goodbye"
                case .cancels: "action.cancel"
                case .clicks: UNNotificationDefaultActionIdentifier
                case .dismisses: UNNotificationDismissActionIdentifier
                }
            }

            var alerts: [String] {
                switch self {
                case .replies: ["You just said Hi there"]
                case .saysGoodbye: ["You just said Goodbye"]
                case .cancels, .clicks, .dismisses: []
                }
            }
        }

        @Test("处理actionable通知: each gesture reaches NotificationHandler; the reply is a UNTextInputNotificationResponse",
              arguments: Gesture.allCases)
        func actionableNotificationResponses(_ gesture: Gesture) async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            let app = AppDelegate()
            _ = app.applicationDidFinishLaunching()
            let handler = ObservedNotificationHandler()
            seed.center.delegate = handler

            try await Self.postActionable(identifier: "saySomething")
            let shown = try #require(await seed.waitForPosted(count: 1, since: baseline).first)
            switch gesture {
            case .replies: seed.server.reply(id: shown.id, text: "Hi there")
            case .saysGoodbye: seed.server.invokeAction(id: shown.id, key: "action.goodbye")
            case .cancels: seed.server.invokeAction(id: shown.id, key: "action.cancel")
            case .clicks: seed.server.invokeAction(id: shown.id)
            case .dismisses: seed.server.close(id: shown.id, reason: .dismissed)
            }

            #expect(await waitUntil { !handler.responses.isEmpty })
            let response = try #require(handler.responses.first)
            #expect(response.actionIdentifier == gesture.actionIdentifier)
            #expect(response.notification.request.identifier == "saySomething")
            if gesture == .replies {
                let reply = try #require(response as? UNTextInputNotificationResponse)
                #expect(reply.userText == "Hi there")
            } else {
                #expect(!(response is UNTextInputNotificationResponse))
            }
            #expect(Alerts.all == gesture.alerts)
            // Answered once: nothing more comes (a dismissal would come 250 ms after a close).
            try await Task.sleep(for: .milliseconds(400))
            #expect(handler.responses.count == 1)
            withExtendedLifetime(app) {}
        }

        // MARK: - Helpers

        /// The post's update example: a score, then the new score with the same identifier.
        static func scoreRequests(_ identifier: String) -> (String, UNNotificationRequest, UNNotificationContent) {
            let content = UNMutableNotificationContent()
            content.title = "Score"
            content.body = "0 : 0"
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false)
            let request = UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
            let newContent = UNMutableNotificationContent()
            newContent.title = "Score"
            newContent.body = "1 : 0"
            return (identifier, request, newContent)
        }

        /// Posts a notification made actionable by the post's one-liner.
        static func postActionable(identifier: String) async throws {
            let content = UNMutableNotificationContent()
            content.title = "Say something"
            content.body = "Please say something"
            seed000MakeActionable(content: content)
            try await UNUserNotificationCenter.current().add(
                UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
        }
    }
}

/// The post's NotificationHandler, recording each response once the post's code has handled it.
final class ObservedNotificationHandler: NotificationHandler {
    private(set) var responses: [UNNotificationResponse] = []

    override func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        super.userNotificationCenter(center, didReceive: response) { [self] in
            responses.append(response)
            completionHandler()
        }
    }
}
