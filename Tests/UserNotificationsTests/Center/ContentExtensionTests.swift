import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Content extensions: the response side")
struct ContentExtensionTests {
    func fixture(_ answer: UNNotificationContentExtensionResponseOption) async throws -> (CenterFixture, RecordingContentExtension, UInt32) {
        let fixture = try await CenterFixture()
        let contentExtension = await RecordingContentExtension(answer)
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        fixture.center.setContentExtension(contentExtension, forCategories: ["saySomething"])
        let id = try await fixture.post("x", category: "saySomething")
        return (fixture, contentExtension, id)
    }

    @Test("notifications of the extension's category are resident, and the extension is told they were shown")
    func shown() async throws {
        let (fixture, contentExtension, _) = try await fixture(.dismiss)
        #expect(fixture.server.notifications.first?.request.hints.resident == true)
        #expect(await contentExtension.shown == ["x"])
    }

    @Test(".doNotDismiss keeps the notification and tells the delegate nothing; a later action counts again")
    func doNotDismiss() async throws {
        let (fixture, contentExtension, id) = try await fixture(.doNotDismiss)
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await eventually { await contentExtension.seen == ["action.goodbye"] })
        fixture.server.invokeAction(id: id, key: "action.cancel")
        #expect(await eventually { await contentExtension.seen == ["action.goodbye", "action.cancel"] })
        #expect(fixture.server.liveIDs == [id])
        #expect(await fixture.center.deliveredNotifications().count == 1)
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }

    @Test(".dismiss closes the notification and tells the delegate nothing")
    func dismiss() async throws {
        let (fixture, contentExtension, id) = try await fixture(.dismiss)
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await eventually { fixture.server.liveIDs.isEmpty })
        #expect(await contentExtension.seen == ["action.goodbye"])
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }

    @Test(".dismissAndForwardAction closes it and the delegate gets the action")
    func forward() async throws {
        let (fixture, _, id) = try await fixture(.dismissAndForwardAction)
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await fixture.delegate.responses.next()?.actionIdentifier == "action.goodbye")
        #expect(await eventually { fixture.server.liveIDs.isEmpty })
    }
}
