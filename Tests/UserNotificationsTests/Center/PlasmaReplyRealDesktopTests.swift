import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The center against real Plasma 5.27 (plasmashell on a headless KWin, private bus), its
/// popup acted on over AT-SPI as a person would: the inline reply field typed into and sent,
/// a button pressed, the close button pressed. Plasma lists `inline-reply`, so a text-input
/// action becomes its reply field and the response carries the typed text.
@Suite("Center against real Plasma: inline reply, buttons and the close button")
struct PlasmaReplyRealDesktopTests {
    static let identity = ApplicationIdentity(id: "org.example.PlasmaReplyRealDesktopTests", displayName: "Plasma Reply Tests")

    /// A text action with a submit title of its own (the popup's send button only carries it
    /// when the center sends `x-kde-reply-submit-button-text`), a plain action, and
    /// dismissals reported.
    static let category: UNNotificationCategory = {
        let reply = UNTextInputNotificationAction(
            identifier: "reply", title: "Answer", options: [], textInputButtonTitle: "Send it", textInputPlaceholder: "Your answer")
        let later = UNNotificationAction(identifier: "later", title: "Later", options: [])
        return UNNotificationCategory(identifier: "question", actions: [reply, later], intentIdentifiers: [], options: [.customDismissAction])
    }()

    /// Starts Plasma with its accessibility bus and a center with a recording delegate on its
    /// bus, posts one request whose summary is `summary`, and runs `body`.
    func withPosted(
        _ summary: String, _ body: (UNUserNotificationCenter, RecordingDelegate, PlasmaPopupDriver, TestBus) async throws -> Void
    ) async throws {
        try await PlasmaDesktop.run(accessible: true) { desktop in
            let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(desktop.testBus.address), persistent: false)
            let delegate = await RecordingDelegate()
            center.delegate = delegate
            center.setNotificationCategories([Self.category])
            let content = UNMutableNotificationContent()
            content.title = summary
            content.body = "Answer me"
            content.categoryIdentifier = Self.category.identifier
            try await center.add(UNNotificationRequest(identifier: summary, content: content, trigger: nil))
            try await body(center, delegate, PlasmaPopupDriver(bus: desktop.testBus), desktop.testBus)
        }
    }

    @Test("plasmashell lists inline-reply; the popup shows the text action as its reply button")
    func advertisesInlineReply() async throws {
        try await withPosted("shown") { _, _, popup, bus in
            let capabilities = try await NotificationsClient(bus: bus.bus).capabilities()
            #expect(capabilities.contains(.inlineReply))
            let buttons = try await popup.buttons(on: "shown")
            #expect(buttons.contains("Answer"))
            #expect(buttons.contains("Later"))
            #expect(buttons.contains("Close"))
        }
    }

    @Test("a reply typed into the popup's field and sent is a UNTextInputNotificationResponse with the text")
    func inlineReply() async throws {
        try await withPosted("asked") { center, delegate, popup, _ in
            let labels = try await popup.reply("Tea at five, with ünïcode", on: "asked", replyLabel: "Answer", sendLabel: "Send it")
            // x-kde-reply-placeholder-text reached the field.
            #expect(labels.contains("Your answer"))
            let response = try #require(await delegate.responses.next(timeout: .seconds(15)))
            let text = try #require(response as? UNTextInputNotificationResponse)
            #expect(text.actionIdentifier == "reply")
            #expect(text.userText == "Tea at five, with ünïcode")
            #expect(text.notification.request.identifier == "asked")
            #expect(await delegate.responses.extra(after: .milliseconds(500)).isEmpty)
            #expect(await center.deliveredNotifications().isEmpty)
        }
    }

    @Test("a button pressed on the popup is a UNNotificationResponse with its identifier")
    func button() async throws {
        try await withPosted("later-please") { _, delegate, popup, _ in
            try await popup.press("Later", on: "later-please")
            let response = try #require(await delegate.responses.next(timeout: .seconds(15)))
            #expect(response.actionIdentifier == "later")
            #expect(!(response is UNTextInputNotificationResponse))
            #expect(response.notification.request.identifier == "later-please")
            #expect(await delegate.responses.extra(after: .milliseconds(500)).isEmpty)
        }
    }

    @Test("the popup's close button is UNNotificationDismissActionIdentifier with .customDismissAction")
    func closeButton() async throws {
        try await withPosted("go-away") { center, delegate, popup, _ in
            try await popup.close("go-away")
            let response = try #require(await delegate.responses.next(timeout: .seconds(15)))
            #expect(response.actionIdentifier == UNNotificationDismissActionIdentifier)
            #expect(response.notification.request.identifier == "go-away")
            #expect(await delegate.responses.extra(after: .milliseconds(500)).isEmpty)
            #expect(await center.deliveredNotifications().isEmpty)
        }
    }
}
