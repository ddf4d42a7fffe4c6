import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Center: signals become responses (mapping.md, in; field notes 1-5)")
struct CenterResponseTests {
    @Test("a click is the default action")
    func click() async throws {
        let fixture = try await CenterFixture()
        let id = try await fixture.post("a")
        fixture.server.invokeAction(id: id, activationToken: "xdg-token")
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(response.notification.request.identifier == "a")
        #expect(response.activationToken == "xdg-token")
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }

    @Test("a category action comes back with its identifier")
    func action() async throws {
        let fixture = try await CenterFixture()
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        let id = try await fixture.post("a", category: "saySomething")
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await fixture.delegate.responses.next()?.actionIdentifier == "action.goodbye")
    }

    @Test("KDE's reply is a text-input response for the category's text action")
    func reply() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        let id = try await fixture.post("a", category: "saySomething")
        fixture.server.reply(id: id, text: "see you")
        let response = try #require(await fixture.delegate.responses.next() as? UNTextInputNotificationResponse)
        #expect(response.actionIdentifier == "action.input")
        #expect(response.userText == "see you")
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }

    @Test("a dismissal is a response only for categories with .customDismissAction")
    func dismiss() async throws {
        let fixture = try await CenterFixture()
        let plain = UNNotificationCategory(identifier: "plain", actions: [], intentIdentifiers: [], options: [])
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething, plain])
        let custom = try await fixture.post("custom", category: "saySomething")
        let other = try await fixture.post("plain", category: "plain")
        fixture.server.close(id: other, reason: .dismissed)
        fixture.server.close(id: custom, reason: .dismissed)
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.actionIdentifier == UNNotificationDismissActionIdentifier)
        #expect(response.notification.request.identifier == "custom")
        #expect(await fixture.delegate.responses.extra(after: .milliseconds(400)).isEmpty)
        #expect(await fixture.center.deliveredNotifications().isEmpty)
    }

    @Test("duplicated signals answer once")
    func duplicates() async throws {
        var script = FakeNotificationServer.Script()
        script.duplicateSignals = true
        let fixture = try await CenterFixture(script: script)
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        let id = try await fixture.post("a", category: "saySomething")
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await fixture.delegate.responses.next()?.actionIdentifier == "action.goodbye")
        #expect(await fixture.delegate.responses.extra(after: .milliseconds(400)).isEmpty)
    }

    @Test("a close before its action: the action wins, no dismissal")
    func closeBeforeAction() async throws {
        var script = FakeNotificationServer.Script()
        script.closeBeforeAction = true
        let fixture = try await CenterFixture(script: script)
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        let id = try await fixture.post("a", category: "saySomething")
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await fixture.delegate.responses.next()?.actionIdentifier == "action.goodbye")
        #expect(await fixture.delegate.responses.extra(after: .milliseconds(400)).isEmpty)
    }

    @Test("an action for another app's id on a broadcasting server is ignored")
    func foreign() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let id = try await fixture.post("a")
        fixture.server.broadcastForeignAction(id: id + 100)
        fixture.server.invokeAction(id: id)
        #expect(await fixture.delegate.responses.next()?.notification.request.identifier == "a")
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }

    @Test("an action sent before the Notify reply is held, not lost (field note 4)")
    func actionBeforeReply() async throws {
        var script = FakeNotificationServer.Script()
        script.actionBeforeReply = "default"
        let fixture = try await CenterFixture(personality: .kde, script: script)
        try await fixture.post("early")
        #expect(await fixture.delegate.responses.next()?.notification.request.identifier == "early")
    }

    @Test("a server restart drops the old ids; its successor's id 1 never reaches the old request (field note 5)")
    func restart() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let first = try await fixture.post("old")
        await fixture.server.stop()
        let successor = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .kde)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        successor.broadcastForeignAction(id: first)
        #expect(await fixture.delegate.responses.extra().isEmpty)
        // The next update of the same identifier is a new notification on the new server.
        let content = UNMutableNotificationContent()
        content.title = "again"
        try await fixture.center.add(UNNotificationRequest(identifier: "old", content: content, trigger: nil))
        #expect(successor.notifications.first?.request.replacesID == 0)
    }

    @Test("a delegate written with completion handlers works too")
    @MainActor
    func completionHandlerDelegate() async throws {
        let fixture = try await CenterFixture()
        let delegate = CompletionDelegate()
        fixture.center.delegate = delegate
        let id = try await fixture.post("a")
        #expect(fixture.server.notifications.first?.request.hints.transient == true)
        fixture.server.invokeAction(id: id)
        #expect(await delegate.received.next()?.actionIdentifier == UNNotificationDefaultActionIdentifier)
    }

    @Test("without a delegate, notifications are shown with the default options")
    func noDelegate() async throws {
        let fixture = try await CenterFixture()
        fixture.center.delegate = nil
        try await fixture.post("a")
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.hints.transient == nil)
        #expect(sent.hints.soundName == "message-new-instant")
    }
}

/// Implements only the completion-handler forms, and shows a banner only. A main-actor class
/// conforms as Apple's Swift 6 code does, with `@preconcurrency`.
@MainActor
final class CompletionDelegate: NSObject, @preconcurrency UNUserNotificationCenterDelegate {
    private let continuation: AsyncStream<UNNotificationResponse>.Continuation
    nonisolated let received: EventRecorder<UNNotificationResponse>

    override init() {
        let (stream, continuation) = AsyncStream.makeStream(of: UNNotificationResponse.self)
        self.continuation = continuation
        received = EventRecorder(stream)
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        continuation.yield(response)
        completionHandler()
    }
}

@Suite("Center: deliveries that overlap")
struct CenterOverlapTests {
    func content(_ body: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "score"
        content.body = body
        return content
    }

    @Test("an update sent while the first delivery is on the wire replaces it")
    func updateDuringDelivery() async throws {
        var script = FakeNotificationServer.Script()
        script.replyDelay = .milliseconds(300)
        let fixture = try await CenterFixture(script: script)
        async let first: Void = fixture.center.add(UNNotificationRequest(identifier: "s", content: content("1:0"), trigger: nil))
        try await Task.sleep(for: .milliseconds(50))
        try await fixture.center.add(UNNotificationRequest(identifier: "s", content: content("2:0"), trigger: nil))
        try await first
        let calls = fixture.server.notifications
        #expect(calls.count == 2)
        #expect(calls[1].request.replacesID == calls[0].id)
        #expect(fixture.server.liveIDs.count == 1)
        #expect(await fixture.center.deliveredNotifications().map(\.request.content.body) == ["2:0"])
    }

    @Test("a withdrawal while the delivery is on the wire closes it when it lands")
    func withdrawDuringDelivery() async throws {
        var script = FakeNotificationServer.Script()
        script.replyDelay = .milliseconds(300)
        let fixture = try await CenterFixture(script: script)
        async let delivery: Void = fixture.center.add(UNNotificationRequest(identifier: "w", content: content("x"), trigger: nil))
        try await Task.sleep(for: .milliseconds(50))
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["w"])
        try await delivery
        #expect(await eventually { fixture.server.liveIDs.isEmpty })
        #expect(await fixture.center.deliveredNotifications().isEmpty)
    }

    @Test("a delegate that never answers willPresent does not hang add; nothing is shown")
    @MainActor
    func silentDelegate() async throws {
        let fixture = try await CenterFixture()
        let delegate = SilentDelegate()
        fixture.center.delegate = delegate
        let start = ContinuousClock.now
        try await fixture.center.add(UNNotificationRequest(identifier: "q", content: content("x"), trigger: nil))
        #expect(ContinuousClock.now - start >= UNUserNotificationCenter.presentationDeadline)
        #expect(fixture.server.notifications.isEmpty)
        #expect(await fixture.center.deliveredNotifications().isEmpty)
    }
}

/// Keeps willPresent's completion handler and never calls it. Conforms with an isolated
/// conformance, the other way a main-actor class satisfies the protocol (Swift 6.2 and later;
/// earlier compilers take the `@preconcurrency` form).
@MainActor
final class SilentDelegate: NSObject {
    var kept: [(UNNotificationPresentationOptions) -> Void] = []

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        kept.append(completionHandler)
    }
}

#if compiler(>=6.2)
extension SilentDelegate: @MainActor UNUserNotificationCenterDelegate {}
#else
extension SilentDelegate: @preconcurrency UNUserNotificationCenterDelegate {}
#endif
