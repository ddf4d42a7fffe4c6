import Foundation
import Testing
import UserNotificationsTesting

@testable import UserNotifications

/// Content extensions on the engines that keep their own lists: the portal and GNOME close a
/// clicked notification themselves, but the category's extension is told each notification is
/// shown, sees each response first, and decides whether the delegate is told.
@Suite("Content extensions on the portal and GNOME engines")
struct ServiceContentExtensionTests {
    @Test("portal: the extension is told the notification is shown and sees the action; .dismiss tells the delegate nothing, .dismissAndForwardAction tells it")
    func portal() async throws {
        let fixture = try await PortalFixture()
        let dismissing = await RecordingContentExtension(.dismiss)
        fixture.center.setContentExtension(dismissing, forCategories: ["message"])
        try await fixture.post("a")
        #expect(await eventually { await dismissing.shown == ["a"] })
        let app = try #require(fixture.appConnection)
        try fixture.portal.invokeAction(id: "a", action: "action.0", to: app)
        #expect(await eventually { await dismissing.seen == ["later"] })
        #expect(await fixture.center.deliveredNotifications().isEmpty)

        let forwarding = await RecordingContentExtension(.dismissAndForwardAction)
        fixture.center.setContentExtension(forwarding, forCategories: ["message"])
        try await fixture.post("b")
        try fixture.portal.invokeAction(id: "b", action: "action.0", to: app)
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.notification.request.identifier == "b" && response.actionIdentifier == "later")
        #expect(await forwarding.seen == ["later"])
        // "a"'s response, which the extension dismissed, never reached the delegate.
        #expect(await fixture.delegate.responses.extra().isEmpty)
        await fixture.stop()
    }

    @Test("GNOME: the extension is told the notification is shown and sees the click; .doNotDismiss tells the delegate nothing, a category without one reaches it")
    func gnome() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.center.serveApplicationInterface()
        let keeping = await RecordingContentExtension(.doNotDismiss)
        fixture.center.setContentExtension(keeping, forCategories: ["message"])
        try await fixture.post("a")
        #expect(await eventually { await keeping.shown == ["a"] })
        try await fixture.gtk.invokeButton(appID: GnomeFixture.identity.id, id: "a", index: 0)
        #expect(await eventually { await keeping.seen == ["later"] })

        try await fixture.post("b", category: "")
        try await fixture.gtk.activate(appID: GnomeFixture.identity.id, id: "b")
        let response = try #require(await fixture.delegate.responses.next())
        #expect(response.notification.request.identifier == "b")
        #expect(await keeping.shown == ["a"])
        #expect(await fixture.delegate.responses.extra().isEmpty)
        await fixture.stop()
    }
}
