import DBus
import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Center: requests become Notify calls (mapping.md, out)")
struct CenterMappingTests {
    @Test("title, subtitle, body, identity, sound and urgency map row by row")
    func contentRows() async throws {
        let fixture = try await CenterFixture(personality: .dunst)
        let content = UNMutableNotificationContent()
        content.title = "Lunch"
        content.subtitle = "Today"
        content.body = "Noodles & dumplings <3"
        content.sound = .default
        content.interruptionLevel = .timeSensitive
        try await fixture.center.add(UNNotificationRequest(identifier: "lunch", content: content, trigger: nil))
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.appName == "Center Tests")
        #expect(sent.appIcon == "dialog-information")
        #expect(sent.summary == "Lunch")
        #expect(sent.body == "Today\nNoodles & dumplings <3")
        #expect(sent.replacesID == 0)
        #expect(sent.hints.desktopEntry == "org.example.CenterTests")
        #expect(sent.hints.soundName == "message-new-instant")
        #expect(sent.hints.urgency == .normal)
        #expect(sent.hints.suppressSound == nil)
        #expect(sent.actions == [NotificationAction(key: "default", label: "")])
        #expect(sent.expiry == .serverDefault)
    }

    @Test("with body-markup the body is escaped and the subtitle bold; the summary never")
    func markup() async throws {
        let fixture = try await CenterFixture(personality: .gnome)
        let content = UNMutableNotificationContent()
        content.title = "a & b"
        content.subtitle = "<i>"
        content.body = "x & y < z"
        try await fixture.center.add(UNNotificationRequest(identifier: "m", content: content, trigger: nil))
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.summary == "a & b")
        #expect(sent.body == "<b>&lt;i&gt;</b>\nx &amp; y &lt; z")
        #expect(sent.hints.suppressSound == true)
    }

    @Test("an empty title becomes the app's display name")
    func emptyTitle() async throws {
        let fixture = try await CenterFixture()
        try await fixture.post("t", title: "")
        #expect(fixture.server.notifications.first?.request.summary == "Center Tests")
    }

    @Test("interruption levels map to urgency 0, 1, 1, 2")
    func urgency() {
        #expect(NotificationBridge.urgency(for: .passive) == .low)
        #expect(NotificationBridge.urgency(for: .active) == .normal)
        #expect(NotificationBridge.urgency(for: .timeSensitive) == .normal)
        #expect(NotificationBridge.urgency(for: .critical) == .critical)
    }

    @Test("a category becomes actions after default; a text action becomes KDE's inline reply")
    func categoriesOnKDE() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        fixture.center.setNotificationCategories([Self.saySomething])
        try await fixture.post("say", category: "saySomething")
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.actions == [
            NotificationAction(key: "default", label: ""),
            NotificationAction(key: "inline-reply", label: "Input"),
            NotificationAction(key: "action.goodbye", label: "Goodbye"),
            NotificationAction(key: "action.cancel", label: "Cancel"),
        ])
        #expect(sent.hints.replyPlaceholderText == "What do you want to say...")
        #expect(sent.hints.replySubmitButtonText == "Send")
    }

    @Test("without inline-reply, a text action is a plain button")
    func categoriesOnDunst() async throws {
        let fixture = try await CenterFixture(personality: .dunst)
        fixture.center.setNotificationCategories([Self.saySomething])
        try await fixture.post("say", category: "saySomething")
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.actions.map(\.key) == ["default", "action.input", "action.goodbye", "action.cancel"])
        #expect(sent.hints.replyPlaceholderText == nil)
    }

    @Test("the same identifier again updates in place: replaces_id is the delivered id")
    func updateInPlace() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let first = try await fixture.post("score", body: "1:0")
        try await fixture.post("score", body: "2:0")
        let calls = fixture.server.notifications
        #expect(calls.count == 2)
        #expect(calls[1].request.replacesID == first)
        #expect(calls[1].id == first)
        let delivered = await fixture.center.deliveredNotifications()
        #expect(delivered.map(\.request.content.body) == ["2:0"])
    }

    @Test("an update withdrawn while the delegate decides is posted as a new notification, as the engine would post it now")
    func updateWithdrawnWhileAsking() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let first = try await fixture.post("score", body: "1:0")
        let delegate = await HeldDelegate()
        fixture.center.delegate = delegate
        let update = Task { try await fixture.post("score", body: "2:0") }
        #expect(await eventually { await delegate.isHolding })
        // The prepared Notify (replacing `first`) must not go out after this.
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["score"])
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        await delegate.answer([.banner, .list])
        _ = try await update.value
        let calls = fixture.server.notifications
        #expect(calls.count == 2)
        #expect(calls.last?.request.replacesID == 0)
        #expect(calls.last?.id != first)
        withExtendedLifetime(delegate) {}
    }

    @Test("removeDeliveredNotifications sends CloseNotification and empties the list")
    func withdraw() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let id = try await fixture.post("gone")
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["gone"])
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        let calls = await fixture.server.waitForCalls { calls in
            calls.contains { if case .closeNotification(let closed, _) = $0 { closed == id } else { false } }
        }
        #expect(calls.contains { if case .closeNotification(let closed, _) = $0 { closed == id } else { false } })
        #expect(await eventually { fixture.server.liveIDs.isEmpty })
        // The withdrawn notification is forgotten after the grace period.
        #expect(await eventually { await fixture.center.engineCore?.delivered.closing.isEmpty == true })
    }

    @Test("willPresent answering [] posts nothing and lists nothing")
    func notPresented() async throws {
        let fixture = try await CenterFixture()
        await MainActor.run { fixture.delegate.options = [] }
        let content = UNMutableNotificationContent()
        content.title = "quiet"
        try await fixture.center.add(UNNotificationRequest(identifier: "quiet", content: content, trigger: nil))
        #expect(await fixture.delegate.presented.count == 1)
        #expect(fixture.server.notifications.isEmpty)
        #expect(await fixture.center.deliveredNotifications().isEmpty)
    }

    @Test("a banner without the list is transient; without .sound the sound is suppressed")
    func presentationHints() async throws {
        let fixture = try await CenterFixture()
        await MainActor.run { fixture.delegate.options = [.banner] }
        try await fixture.post("flash")
        let sent = try #require(fixture.server.notifications.first?.request)
        #expect(sent.hints.transient == true)
        #expect(sent.hints.suppressSound == true)
    }

    @Test("a NUL in the content is a typed error and nothing is sent")
    func badContent() async throws {
        let fixture = try await CenterFixture()
        let content = UNMutableNotificationContent()
        content.title = "a\u{0}b"
        await #expect(throws: NotificationDeliveryError.invalidContent(field: "title", reason: "contains a NUL character")) {
            try await fixture.center.add(UNNotificationRequest(identifier: "bad", content: content, trigger: nil))
        }
        #expect(fixture.server.calls.isEmpty)
    }

    @Test("no server: add fails with a typed error")
    func noServer() async throws {
        let testBus = try await TestBus()
        let center = UNUserNotificationCenter(identity: CenterFixture.identity, bus: .address(testBus.address), persistent: false)
        let content = UNMutableNotificationContent()
        content.title = "x"
        await #expect(throws: NotificationDeliveryError.self) {
            try await center.add(UNNotificationRequest(identifier: "x", content: content, trigger: nil))
        }
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
    }

    static let saySomething: UNNotificationCategory = {
        let input = UNTextInputNotificationAction(
            identifier: "action.input", title: "Input", options: [.foreground],
            textInputButtonTitle: "Send", textInputPlaceholder: "What do you want to say...")
        let goodbye = UNNotificationAction(identifier: "action.goodbye", title: "Goodbye", options: [.foreground])
        let cancel = UNNotificationAction(identifier: "action.cancel", title: "Cancel", options: [.destructive])
        return UNNotificationCategory(identifier: "saySomething", actions: [input, goodbye, cancel], intentIdentifiers: [], options: [.customDismissAction])
    }()
}

@Suite("Center: the remaining rows of mapping.md")
struct CenterMoreMappingTests {
    @Test("a badge in the content reaches the launcher entry when the options include .badge")
    func badge() async throws {
        let fixture = try await CenterFixture()
        await MainActor.run { fixture.delegate.options = [.banner, .list, .badge] }
        let dock = try await DBusConnection.connect(to: fixture.testBus.bus)
        let seen = EventRecorder(try await dock.subscribe(to: [DBusMatchRule(interface: LauncherEntry.interface)]).events)
        let content = UNMutableNotificationContent()
        content.title = "mail"
        content.badge = 7
        try await fixture.center.add(UNNotificationRequest(identifier: "mail", content: content, trigger: nil))
        guard case .signal(let signal) = await seen.next() else { Issue.record("no badge signal"); return }
        #expect(signal.body.first == .string("application://org.example.CenterTests.desktop"))
        #expect(signal.body.last?.variantDictionaryValue?["count"] == .int64(7))
        try await fixture.center.setBadgeCount(0)
        guard case .signal(let cleared) = await seen.next() else { Issue.record("no clearing signal"); return }
        #expect(cleared.body.last?.variantDictionaryValue?["count-visible"] == .boolean(false))
    }

    @Test("a named sound that is a readable absolute file is sent as sound-file; other names as sound-name")
    func namedSounds() async throws {
        let fixture = try await CenterFixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ding-\(UUID().uuidString).oga")
        try Data([1, 2, 3]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (identifier, name) in [("file", file.path), ("theme", "bell")] {
            let content = UNMutableNotificationContent()
            content.title = identifier
            content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
            try await fixture.center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
        }
        let sent = fixture.server.notifications.map(\.request.hints)
        #expect(sent[0].soundFile == file.path && sent[0].soundName == nil)
        #expect(sent[1].soundName == "bell" && sent[1].soundFile == nil)
    }

    @Test("the first image attachment is sent as image-path, a file:// URI")
    func imageAttachment() async throws {
        let fixture = try await CenterFixture()
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("pic-\(UUID().uuidString).png")
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        try Data(header + [UInt8](repeating: 0, count: 64)).write(to: png)
        defer { try? FileManager.default.removeItem(at: png) }
        let content = UNMutableNotificationContent()
        content.title = "photo"
        content.attachments = [try UNNotificationAttachment(identifier: "pic", url: png, options: nil)]
        try await fixture.center.add(UNNotificationRequest(identifier: "photo", content: content, trigger: nil))
        #expect(fixture.server.notifications.first?.request.hints.imagePath == png.absoluteString)
    }

    @Test("an expired notification stays delivered while the server keeps a history")
    func expiredWithPersistence() async throws {
        let fixture = try await CenterFixture(personality: .kde)
        let id = try await fixture.post("kept")
        fixture.server.close(id: id, reason: .expired)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["kept"])

        let dunst = try await CenterFixture(personality: .dunst)
        let other = try await dunst.post("gone")
        dunst.server.close(id: other, reason: .expired)
        #expect(await eventually { await dunst.center.deliveredNotifications().isEmpty })
    }

    @Test("settings follow the server's capabilities and the remembered answer")
    func settings() async throws {
        let fixture = try await CenterFixture(personality: .gnome)
        #expect(await fixture.center.notificationSettings().authorizationStatus == .notDetermined)
        #expect(try await fixture.center.requestAuthorization(options: [.alert, .sound]))
        let settings = await fixture.center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.soundSetting == .enabled)
        #expect(settings.notificationCenterSetting == .enabled)
        #expect(settings.lockScreenSetting == .notSupported)
        #expect(settings.criticalAlertSetting == .notSupported)
    }
}

/// Holds `willPresent` until the test answers it.
@MainActor
private final class HeldDelegate: NSObject, UNUserNotificationCenterDelegate {
    private var held: CheckedContinuation<UNNotificationPresentationOptions, Never>?

    var isHolding: Bool { held != nil }

    func answer(_ options: UNNotificationPresentationOptions) {
        held?.resume(returning: options)
        held = nil
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        await withCheckedContinuation { held = $0 }
    }
}
