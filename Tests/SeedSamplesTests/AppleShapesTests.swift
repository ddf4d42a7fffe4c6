import AppleShapes
import AppleShapesSwift5
import Foundation
import Testing
import UserNotifications

extension SeedSamplesTests {
    /// The Apple-platform code shapes of AppleShapes (Swift 6 mode) and AppleShapesSwift5
    /// (Swift 5 mode): that both targets build is the compile test; these check that the code
    /// does what it does on Apple platforms.
    @Suite("Apple-platform code shapes")
    struct AppleShapesRun {
        @Test("a service extension driven by hand from nonisolated code finishes from another queue")
        func serviceExtensionByHand() {
            #expect(AppleShapes.runServiceExtensionByHand(title: "Swift 6") == "Swift 6 [modified]")
            #expect(AppleShapesSwift5.runServiceExtensionByHand(title: "Swift 5") == "Swift 5 [modified]")
        }

        @Test("text-input actions made with the initialisers inherited from UNNotificationAction")
        func inheritedTextInputActions() {
            for actions in [AppleShapes.inheritedTextInputActions(), AppleShapesSwift5.inheritedTextInputActions()] {
                #expect(actions.map(\.identifier) == ["reply", "quick", "icon"])
                #expect(actions.map(\.title) == ["Reply", "Quick reply", "Reply"])
                #expect(actions.map(\.options) == [[], [], [.foreground]])
                #expect(actions.map(\.textInputButtonTitle) == ["", "", ""])
                #expect(actions.map(\.textInputPlaceholder) == ["", "", ""])
                #expect(actions[2].icon != nil)
            }
        }

        @Test("a content subclass without initialisers of its own is made, copied and scheduled")
        func contentSubclass() throws {
            for content in [AppleShapes.taggedContent(title: "six"), AppleShapesSwift5.taggedContent(title: "five")] {
                let copy = try #require(content.copy() as? UNNotificationContent)
                #expect(copy.title == content.title)
                let request = UNNotificationRequest(identifier: "tagged", content: content, trigger: nil)
                #expect(request.content.title == content.title)
            }
        }

        @Test("UNError's userInfo is its NSError's")
        func errorUserInfo() {
            let error = UNError(.badgeInputInvalid, userInfo: ["reason": "negative"])
            let info = AppleShapes.errorUserInfo(error)
            #expect(info["reason"] as? String == "negative")
            #expect(info[NSLocalizedDescriptionKey] as? String == error.localizedDescription)
            #expect(AppleShapesSwift5.errorUserInfo(error)["reason"] as? String == "negative")
        }

        @Test("delegates whose handlers are @Sendable (nonisolated methods finishing from a Task, or from a queue) are asked and told")
        @MainActor
        func sendableHandlerDelegates() async throws {
            let hopping6 = AppleShapes.HoppingNotificationDelegate()
            try await postAndClick(delegate: hopping6, name: "hopping-6")
            #expect(await waitUntil { hopping6.received == [UNNotificationDefaultActionIdentifier] })
            let hopping5 = AppleShapesSwift5.HoppingNotificationDelegate()
            try await postAndClick(delegate: hopping5, name: "hopping-5")
            #expect(await waitUntil { hopping5.received == [UNNotificationDefaultActionIdentifier] })
            try await postAndClick(delegate: AppleShapes.SendableHandlerDelegate(), name: "queue-6")
            try await postAndClick(delegate: AppleShapesSwift5.SendableHandlerDelegate(), name: "queue-5")
        }

        /// Posts a notification with `delegate` set, checks that its `willPresent` answer
        /// (`[.banner]`: shown, not kept in the list) reached the server, and clicks it.
        @MainActor
        func postAndClick(delegate: any UNUserNotificationCenterDelegate, name: String) async throws {
            let seed = try await SeedCenter.shared()
            let baseline = try await seed.reset()
            seed.center.delegate = delegate
            let content = UNMutableNotificationContent()
            content.title = name
            try await seed.center.add(UNNotificationRequest(identifier: name, content: content, trigger: nil))
            let shown = try #require(await seed.waitForPosted(count: 1, since: baseline).first)
            #expect(shown.summary == name)
            #expect(shown.transient == true)
            seed.server.invokeAction(id: shown.id)
            withExtendedLifetime(delegate) {}
        }
    }
}
