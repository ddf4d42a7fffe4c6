import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: org.freedesktop.portal.Notification version 2 (fake portal)")
struct PortalEngineTests {
    @Test("the center chooses the portal and adds by identifier with the version 2 keys")
    func add() async throws {
        let fixture = try await PortalFixture()
        #expect(await fixture.center.engineKind == .portal)
        try await fixture.post("a")
        let added = try #require(fixture.portal.added.last)
        #expect(added.id == "a")
        let notification = added.notification
        #expect(notification["title"] == .string("Ada"))
        #expect(notification["body"] == .string("Chat\n1 < 2 & more"))
        #expect(notification["markup-body"] == .string("<b>Chat</b>\n1 &lt; 2 &amp; more"))
        #expect(notification["priority"] == .string("normal"))
        #expect(notification["default-action"] == .string("default"))
        #expect(notification["sound"] == .string("default"))
        #expect(notification["icon"] == .structure([.string("themed"), .variant(.stringArray(["dialog-information"]))]))
        #expect(notification["category"] == .string("im.received"))
        #expect(notification["display-hint"] == nil)
        #expect(notification["buttons"] == .array(element: .dictionary(key: .string, value: .variant), [
            .variantDictionary([("label", .string("Later")), ("action", .string("action.0"))]),
            .variantDictionary([("label", .string("Reply")), ("action", .string("action.1")), ("purpose", .string("im.reply-with-text"))]),
        ]))
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["a"])
        await fixture.stop()
    }

    @Test("a version 1 portal gets no version 2 key")
    func versionOne() async throws {
        let fixture = try await PortalFixture(version: 1)
        try await fixture.post("a")
        let keys = Set(try #require(fixture.portal.added.last).notification.keys)
        #expect(keys == ["title", "body", "icon", "priority", "default-action", "buttons"])
        let buttons = try #require(fixture.portal.added.last?.notification["buttons"])
        #expect(!"\(buttons)".contains("purpose"))
        await fixture.stop()
    }

    @Test("a banner out of the list is transient; an update of a shown one is shown as new")
    func displayHints() async throws {
        let fixture = try await PortalFixture()
        await MainActor.run { fixture.delegate.options = [.banner] }
        try await fixture.post("a")
        #expect(fixture.portal.added.last?.notification["display-hint"] == .stringArray(["transient"]))
        await MainActor.run { fixture.delegate.options = [.list] }
        try await fixture.post("a")
        #expect(fixture.portal.added.last?.notification["display-hint"] == .stringArray(["tray", "show-as-new"]))
        await fixture.stop()
    }

    @Test("a reply comes back as a text-input response with the activation token")
    func reply() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("a")
        let app = try #require(fixture.appConnection)
        try fixture.portal.invokeAction(
            id: "a", action: "action.1",
            parameter: [.variantDictionary([("activation-token", .string("xdg-token"))]), .string("see you")], to: app)
        let response = try #require(await fixture.delegate.responses.next() as? UNTextInputNotificationResponse)
        #expect(response.actionIdentifier == "reply")
        #expect(response.userText == "see you")
        #expect(response.activationToken == "xdg-token")
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        await fixture.stop()
    }

    @Test("a click is the default action; unknown ids, names and types are dropped")
    func click() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("a")
        let app = try #require(fixture.appConnection)
        try fixture.portal.invokeAction(id: "nobody", action: "default", to: app)
        try fixture.portal.invokeAction(id: "a", action: "action.9", to: app)
        try fixture.portal.invokeAction(id: "a", action: "app.quit", parameter: [.uint32(7)], to: app)
        try fixture.portal.invokeAction(id: "a", action: "default", parameter: [.string("no platform data")], to: app)
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(response.activationToken == nil)
        #expect(await fixture.delegate.responses.extra().isEmpty)
        await fixture.stop()
    }

    @Test("withdrawing sends RemoveNotification; a trigger fires from the engine's own scheduler")
    func removeAndSchedule() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("a")
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["a"])
        #expect(await eventually { fixture.portal.calls.contains { if case .remove("a", _) = $0 { true } else { false } } })
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["later"])
        #expect(fixture.portal.added.count == 1)
        fixture.clock.advance(by: 61)
        #expect(await eventually { fixture.portal.added.last?.id == "later" })
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        await fixture.stop()
    }

    @Test("the action parameter is read bounded")
    func parameterBounds() {
        let long = String(repeating: "é", count: PortalActionParameter.maximumReplyBytes)
        let parsed = PortalActionParameter([
            .variantDictionary([("activation-token", .string(String(repeating: "t", count: 5000)))]), .string(long),
        ])
        #expect(parsed.activationToken == nil)
        #expect(parsed.replyText?.utf8.count == PortalActionParameter.maximumReplyBytes)
        #expect(PortalActionParameter([]) == PortalActionParameter())
        #expect(PortalActionParameter([.uint32(1), .boolean(true)]) == PortalActionParameter())
        let targeted = PortalActionParameter([
            .string("portal:default:a"), .variantDictionary([("activation-token", .string("t"))]),
        ])
        #expect(targeted == PortalActionParameter(activationToken: "t", target: "portal:default:a"))
        let longTarget = PortalActionParameter([.string(String(repeating: "x", count: PortalResponseID.maximumBytes + 1))])
        #expect(longTarget.target == nil)
    }
}
