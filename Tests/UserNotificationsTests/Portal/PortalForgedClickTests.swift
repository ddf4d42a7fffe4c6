import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: a click through ActivateAction is taken from the portal alone, with the notification's nonce")
struct PortalForgedClickTests {
    static let identity = ApplicationIdentity(id: "org.example.Portal-Forged", displayName: "Forged", icon: "dialog-information")

    /// `ActivateAction("notification-response", [target])` on the app's object, from `connection`.
    static func activate(_ target: String, appID: String = identity.id, from connection: DBusConnection) async throws {
        let path = "/" + appID.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        let message = try DBusMessage.methodCall(
            destination: appID, path: try DBusObjectPath(path), interface: "org.freedesktop.Application", member: "ActivateAction",
            body: [.string("notification-response"), .array(element: .variant, [.variant(.string(target))]), .variantDictionary([])])
        _ = try await connection.call(message, timeout: .seconds(10))
    }

    static func portalEngine(of center: UNUserNotificationCenter) async -> EngineCore? {
        _ = await center.engineKind
        return (center.engine as? EngineCore) ?? ((center.engine as? ChoosingEngine)?.adoptedEngine as? EngineCore)
    }

    @Test("another peer's ActivateAction with the notification's very target is refused and the delegate hears nothing; the portal's click is taken")
    func forgerIgnored() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url, identity: Self.identity)
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("a")
        let notification = try #require(fixture.portal.added.last?.notification)
        let target = try #require(notification["default-action-target"]?.stringValue)

        let forger = try await DBusConnection.connect(to: fixture.testBus.bus)
        // Even the exact target (say, read off the screen's server) is refused from anyone but the portal.
        await #expect(throws: DBusError.self) { try await Self.activate(target, from: forger) }
        await #expect(throws: DBusError.self) { try await Self.activate("portal:default:\(PortalResponseID.makeNonce()):a", from: forger) }
        #expect(fixture.delegate.responses.all.isEmpty)
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["a"])

        try await fixture.portal.activateAction(id: "a", appID: Self.identity.id, activationToken: "xdg-real")
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.notification.request.identifier == "a")
        #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(response.activationToken == "xdg-real")
        await forger.close()
        await fixture.stop()
    }

    @Test("a target with another nonce is refused, from the portal's own name too, by ActivateAction and by ActionInvoked")
    func wrongNonceRefused() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url, identity: Self.identity)
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("b")
        let notification = try #require(fixture.portal.added.last?.notification)
        let real = try #require(notification["default-action-target"]?.stringValue.flatMap(PortalResponseID.init(parsing:)))
        var wrong = real
        wrong.nonce = PortalResponseID.makeNonce()

        let engine = try #require(await Self.portalEngine(of: fixture.center))
        let observer = try await DBusConnection.connect(to: fixture.testBus.bus)
        let portalName = try #require(try await observer.nameOwner(of: PortalInterface.busName))
        #expect(await engine.takeActivatedResponse(wrong.text, activationToken: nil, sender: portalName) == false)
        // The 1.16 frontend relays a backend's click on an app.* action as ActionInvoked.
        let appName = try #require(fixture.appConnection)
        try fixture.portal.invokeAction(
            id: "b", action: "app.notification-response", parameter: [.string(wrong.text)], to: appName)
        #expect(await fixture.delegate.responses.extra().isEmpty)
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["b"])

        #expect(await engine.takeActivatedResponse(real.text, activationToken: nil, sender: portalName))
        #expect(await fixture.delegate.responses.next()?.notification.request.identifier == "b")
        await observer.close()
        await fixture.stop()
    }

    @Test("a notification posted again gets a new nonce: the earlier one's target is refused")
    func replacedNotificationTarget() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url, identity: Self.identity)
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("c")
        let first = try #require(fixture.portal.added.last?.notification["default-action-target"]?.stringValue)
        try await fixture.post("c")
        let second = try #require(fixture.portal.added.last?.notification["default-action-target"]?.stringValue)
        #expect(first != second)

        let engine = try #require(await Self.portalEngine(of: fixture.center))
        let observer = try await DBusConnection.connect(to: fixture.testBus.bus)
        let portalName = try #require(try await observer.nameOwner(of: PortalInterface.busName))
        #expect(await engine.takeActivatedResponse(first, activationToken: nil, sender: portalName) == false)
        #expect(await engine.takeActivatedResponse(second, activationToken: nil, sender: portalName))
        #expect(await fixture.delegate.responses.next()?.notification.request.identifier == "c")
        await observer.close()
        await fixture.stop()
    }
}
