import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// A content extension that writes only the `async` form of `didReceive(_:completionHandler:)`,
/// as Apple's SDK lets it.
@MainActor
final class AsyncAnsweringExtension: NSObject, UNNotificationContentExtension {
    private(set) var seen: [String] = []

    func didReceive(_ notification: UNNotification) {}

    func didReceive(_ response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
        seen.append(response.actionIdentifier)
        return .dismiss
    }
}

@Suite("Content extensions: the async form")
struct ContentExtensionAsyncTests {
    @Test("an extension with only the async form is asked, and its answer (.dismiss) is kept: closed, the delegate not told")
    func asyncFormAnswers() async throws {
        let fixture = try await CenterFixture()
        let contentExtension = await AsyncAnsweringExtension()
        fixture.center.setNotificationCategories([CenterMappingTests.saySomething])
        fixture.center.setContentExtension(contentExtension, forCategories: ["saySomething"])
        let id = try await fixture.post("x", category: "saySomething")
        fixture.server.invokeAction(id: id, key: "action.goodbye")
        #expect(await eventually { await contentExtension.seen == ["action.goodbye"] })
        #expect(await eventually { fixture.server.liveIDs.isEmpty })
        #expect(await fixture.delegate.responses.extra().isEmpty)
    }
}
