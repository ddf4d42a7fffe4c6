import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// Translations a test changes while the process runs, standing in for what Apple's deferred
/// lookup follows (the language, the app's strings): Foundation on Linux neither lets a test
/// subclass `Bundle` nor shows a bundle's changed strings once it has read them. A key without
/// a translation is its own text, as with a bundle.
final class SwitchableStrings: LocalizedStringSource {
    private let translations = Locked<[String: String]>([:])

    func translate(_ key: String, as text: String) {
        translations.withLock { $0[key] = text }
    }

    func localizedString(forKey key: String, value: String?, table tableName: String?) -> String {
        translations.withLock { $0[key] } ?? key
    }
}

@Suite("Localization at delivery: localizedUserNotificationString is looked up again when the notification is shown")
struct LocalizationAtDeliveryTests {
    let strings = SwitchableStrings()

    func localized(_ key: String, _ arguments: [Any]?) -> String {
        LocalizedUserNotificationString.make(forKey: key, arguments: arguments, bundle: strings)
    }

    func makeContent(title: String, body: String = "") -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        return content
    }

    @Test("content given a returned text remembers its key and arguments; a changed text is plain")
    func capturedOnAssignment() {
        strings.translate("greeting", as: "Hi %@")
        let text = localized("greeting", ["Ana"])
        #expect(text == "Hi Ana")
        let content = makeContent(title: text, body: text)
        #expect(content.fields.localizations.title == DeferredLocalization(key: "greeting", arguments: ["Ana"], source: strings))
        content.body = text + "!"
        #expect(content.fields.localizations.body == nil)
        let copy = content.copy() as! UNNotificationContent
        #expect(copy.fields.localizations.title?.key == "greeting")
    }

    @Test("a pending request shows the translation the bundle has when it fires, in title, subtitle and body")
    func resolvedWhenFiring() async throws {
        let fixture = try await CenterFixture(personality: .dunst)
        strings.translate("greeting", as: "Hello %@")
        strings.translate("count", as: "%@ new messages")
        let content = makeContent(title: localized("greeting", ["Ana"]), body: localized("count", [3]))
        content.subtitle = localized("greeting", ["Bo"])
        try await fixture.center.add(UNNotificationRequest(
            identifier: "hello", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        #expect(await fixture.center.pendingNotificationRequests().first?.content.title == "Hello Ana")

        strings.translate("greeting", as: "Bonjour %@")
        strings.translate("count", as: "%d nouveaux messages")
        fixture.clock.advance(by: 60)
        #expect(await fixture.server.waitForNotify() != nil)
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.summary == "Bonjour Ana")
        #expect(sent.body == "Bonjour Bo\n3 nouveaux messages")
        // The delegate and the delivered list see the text that was shown.
        #expect(await fixture.delegate.presented.first?.request.content.title == "Bonjour Ana")
        #expect(await eventually { await fixture.center.deliveredNotifications().first?.request.content.body == "3 nouveaux messages" })
    }

    @Test("a repeating request is localized afresh each time it fires")
    func repeating() async throws {
        let fixture = try await CenterFixture()
        strings.translate("greeting", as: "Hello %@")
        try await fixture.center.add(UNNotificationRequest(
            identifier: "tick", content: makeContent(title: localized("greeting", ["Ana"])),
            trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        fixture.clock.advance(by: 60)
        #expect(await fixture.server.waitForNotify(count: 1) != nil)
        strings.translate("greeting", as: "Hola %@")
        fixture.clock.advance(by: 60)
        #expect(await fixture.server.waitForNotify(count: 2) != nil)
        #expect(fixture.server.notifications.map(\.request.summary) == ["Hello Ana", "Hola Ana"])
    }

    @Test("text set directly is sent as it is")
    func plainText() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(UNNotificationRequest(identifier: "plain", content: makeContent(title: "Just text"), trigger: nil))
        #expect(fixture.server.notifications.first?.request.summary == "Just text")
    }

    @Test("a pending request keeps its key and arguments across a restart and is looked up in the new process")
    func acrossRestart() async throws {
        let fixture = try await CenterFixture(persistent: true)
        strings.translate("Hello %@", as: "Bonjour %@")
        try await fixture.center.add(UNNotificationRequest(
            identifier: "later", content: makeContent(title: localized("Hello %@", ["Ana"])),
            trigger: UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false)))
        #expect(await fixture.center.pendingNotificationRequests().first?.content.title == "Bonjour Ana")
        let saved = fixture.stateHome.appendingPathComponent("notifications.json")
        #expect(await eventually {
            let text = (try? String(contentsOf: saved, encoding: .utf8)) ?? ""
            return text.contains("\"Hello %@\"") && text.contains("\"Ana\"")
        })

        // The next launch, after the due time, looks the key up in its main bundle, which has no
        // translation: the key itself is the text.
        let clock = TestNotificationClock(now: fixture.clock.now.addingTimeInterval(1000))
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: clock, persistent: true, stateHome: fixture.stateHome)
        _ = await relaunched.notificationCategories()
        #expect(await fixture.server.waitForNotify() != nil)
        #expect(fixture.server.notifications.first?.request.summary == "Hello Ana")
    }

    @Test("a remote payload's loc-key, title-loc-key and subtitle-loc-key are looked up again at delivery")
    func remotePayload() async throws {
        let fixture = try await CenterFixture(personality: .dunst)
        strings.translate("alert.title", as: "Order %@")
        strings.translate("alert.subtitle", as: "From %@")
        strings.translate("alert.body", as: "%@ items shipped")
        let payload = try RemoteNotificationPayload(dictionary: ["aps": ["alert": [
            "title-loc-key": "alert.title", "title-loc-args": ["42"],
            "subtitle-loc-key": "alert.subtitle", "subtitle-loc-args": ["Shop"],
            "loc-key": "alert.body", "loc-args": ["3"],
        ]]], bundle: strings)
        #expect(payload.content.title == "Order 42")

        strings.translate("alert.title", as: "Commande %@")
        strings.translate("alert.subtitle", as: "De %@")
        strings.translate("alert.body", as: "%d articles expédiés")
        try await fixture.center.deliverRemoteNotification(payload)
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.summary == "Commande 42")
        #expect(sent.body == "De Shop\n3 articles expédiés")
    }
}

@Suite("Localization at delivery: the table of returned texts")
struct DeferredLocalizationTableTests {
    @Test("the table holds its last texts only, and a text returned again stands for its later lookup")
    func bounded() {
        let table = DeferredLocalizationTable(capacity: 3)
        func lookup(_ key: String) -> DeferredLocalization { DeferredLocalization(key: key, arguments: nil, source: Bundle.main) }
        table.remember("a", from: lookup("a"))
        table.remember("b", from: lookup("b"))
        table.remember("a", from: lookup("a2"))
        table.remember("c", from: lookup("c"))
        #expect(table.localization(for: "a")?.key == "a2")
        table.remember("d", from: lookup("d"))
        #expect(table.localization(for: "b") == nil)
        #expect(table.localization(for: "a")?.key == "a2")
        table.remember("e", from: lookup("e"))
        #expect(table.localization(for: "a") == nil)
        #expect(["c", "d", "e"].map { table.localization(for: $0)?.key } == ["c", "d", "e"])
        #expect(table.localization(for: "") == nil)
    }

    @Test("many threads remember and read at once")
    func concurrent() async {
        let table = DeferredLocalizationTable(capacity: 64)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let text = "w\(worker)-\(index)"
                        table.remember(text, from: DeferredLocalization(key: text, arguments: [index], source: Bundle.main))
                        _ = table.localization(for: text)
                    }
                }
            }
        }
        #expect(table.localization(for: "w0-0") == nil)
    }

    @Test("lookups survive the store's snapshot: key, arguments, and the bundle's path unless main")
    func snapshot() throws {
        let content = UNMutableNotificationContent()
        content.title = NSString.localizedUserNotificationString(forKey: "Hi %@, %d new", arguments: ["Ana", 2])
        #expect(content.title == "Hi Ana, 2 new")
        let restored = try jsonRoundTrip(NotificationContentSnapshot(content)).makeContent()
        let localization = try #require(restored.fields.localizations.title)
        #expect(localization.key == "Hi %@, %d new")
        #expect(localization.arguments == [.string("Ana"), .integer(2)])
        #expect(localization.source === Bundle.main)
        #expect(try jsonRoundTrip(NotificationContentSnapshot(UNMutableNotificationContent())).localizations == nil)
    }
}
