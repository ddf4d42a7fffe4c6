import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: app.* actions reach the app side through org.freedesktop.Application, also after a restart")
struct PortalRelaunchTests {
    static let identity = ApplicationIdentity(id: "org.example.Portal-Relaunch", displayName: "Relaunch", icon: "dialog-information")

    @Test("an app that serves org.freedesktop.Application gets app.* actions with targets; a click comes back through ActivateAction")
    func running() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url, identity: Self.identity)
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("a")
        let added = try #require(fixture.portal.added.last?.notification)
        #expect(added["default-action"] == .string("app.notification-response"))
        let target = try #require(added["default-action-target"]?.stringValue.flatMap(PortalResponseID.init(parsing:)))
        #expect(target.action == "default" && target.identifier == "a")
        #expect(added["buttons"] == .array(element: .dictionary(key: .string, value: .variant), [
            .variantDictionary([
                ("label", .string("Later")), ("action", .string("app.notification-response")),
                ("target", .string("portal:action.0:\(target.nonce):a")),
            ]),
            // The reply's text comes only with ActionInvoked, so the reply button stays a plain name.
            .variantDictionary([("label", .string("Reply")), ("action", .string("action.1")), ("purpose", .string("im.reply-with-text"))]),
        ]))

        try await fixture.portal.activateAction(id: "a", appID: Self.identity.id, activationToken: "xdg-1")
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(response.notification.request.identifier == "a")
        #expect(response.activationToken == "xdg-1")
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        // Answered once: the same click again, or a target the engine did not make, is refused.
        await #expect(throws: DBusError.self) { try await fixture.portal.activateAction(id: "a", appID: Self.identity.id) }
        await fixture.stop()
    }

    @Test("a click after the app's center went away reaches the next center of the app (the relaunched app)")
    func afterExit() async throws {
        let folder = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: folder.url, identity: Self.identity)
        do {
            let first = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
            first.setNotificationCategories(PortalFixture.categories)
            try await first.serveApplicationInterface()
            try await fixture.post("b", to: first)
        }
        #expect(await eventually { (try? await fixture.testBus.ownerPID(of: Self.identity.id)) == nil })

        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        let delegate = await RecordingDelegate()
        relaunched.delegate = delegate
        try await relaunched.serveApplicationInterface()
        try await fixture.portal.activateAction(id: "b", button: 0, appID: Self.identity.id, activationToken: "xdg-2")
        let response = try #require(await delegate.responses.next())
        #expect(response.actionIdentifier == "later")
        #expect(response.notification.request.identifier == "b")
        #expect(response.notification.request.content.body == "1 < 2 & more")
        #expect(response.activationToken == "xdg-2")
        #expect(await relaunched.deliveredNotifications().isEmpty)
        await fixture.stop()
    }

    @Test("the target is read defensively: action, a 128-bit nonce in hexadecimal, identifier")
    func targets() {
        let nonce = "0123456789abcdef0123456789abcdef"
        #expect(PortalResponseID(parsing: "portal:default:\(nonce):a:b") == PortalResponseID(action: "default", nonce: nonce, identifier: "a:b"))
        #expect(PortalResponseID(parsing: "portal:action.3:\(nonce):x") == PortalResponseID(action: "action.3", nonce: nonce, identifier: "x"))
        for bad in ["", "portal:", "portal:default", "portal:default:", "portal:quit:\(nonce):x", "portal:action.-1:\(nonce):x",
                    "agent:default:\(nonce):x", "portal:default:\(nonce):", "portal:default:\(nonce)",
                    // Targets of the form before the nonce, and nonces of another length or case.
                    "portal:default:a", "portal:action.0:a:b", "portal:default:\(nonce.dropLast()):x", "portal:default:\(nonce)0:x",
                    "portal:default:\(nonce.uppercased()):x", "portal:default:\(String(repeating: "g", count: 32)):x",
                    "portal:default:\(nonce):" + String(repeating: "x", count: PortalResponseID.maximumBytes)] {
            #expect(PortalResponseID(parsing: bad) == nil, "\(bad.prefix(60))")
        }
        let id = PortalResponseID(action: "action.12", nonce: PortalResponseID.makeNonce(), identifier: "ünï:cöde")
        #expect(PortalResponseID(parsing: id.text) == id)
        let nonces = (0..<64).map { _ in PortalResponseID.makeNonce() }
        #expect(nonces.allSatisfy { PortalResponseID.isNonce($0[...]) })
        #expect(Set(nonces).count == nonces.count)
        #expect(PortalResponseID.nonce(nonce, matches: nonce) && !PortalResponseID.nonce(nonces[0], matches: nonce))
    }

    @Test("an app that starts serving after its first posts gets app.* actions from the very next post")
    func servingLater() async throws {
        let fixture = try await PortalFixture(identity: Self.identity)
        // Two posts before serving: plain action names. The bus said the app id has no owner,
        // and the engine believes that for a while rather than asking it again at each post.
        try await fixture.post("a")
        try await fixture.post("b")
        #expect(fixture.portal.added.map { $0.notification["default-action"] } == [.string("default"), .string("default")])
        try await fixture.center.serveApplicationInterface()
        // The center says it serves, so this post, at once after, relaunches the app.
        try await fixture.post("c")
        let added = try #require(fixture.portal.added.last?.notification)
        #expect(added["default-action"] == .string("app.notification-response"))
        let target = try #require(added["default-action-target"]?.stringValue.flatMap(PortalResponseID.init(parsing:)))
        #expect(target.identifier == "c")
        await fixture.stop()
    }

}
