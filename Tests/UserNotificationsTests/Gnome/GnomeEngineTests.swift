import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("GNOME engine: org.gtk.Notifications (fake GNOME Shell service)")
struct GnomeEngineTests {
    static let app = GnomeFixture.identity.id

    @Test("the center adds by app id and identifier with GNotification's keys and app.* actions whose targets are the responses")
    func add() async throws {
        let fixture = try await GnomeFixture()
        #expect(await fixture.center.engineKind == .gnome)
        try await fixture.post("a")
        #expect(fixture.gtk.shownIDs(of: Self.app) == ["a"])
        let notification = try #require(fixture.gtk.notification(of: Self.app, id: "a"))
        #expect(Set(notification.keys) == ["title", "body", "icon", "priority", "default-action", "default-action-target", "buttons"])
        #expect(notification["title"] == .string("Ada"))
        #expect(notification["body"] == .string("Chat\n1 < 2 & more"))
        #expect(notification["priority"] == .string("normal"))
        #expect(notification["icon"] == .structure([.string("themed"), .variant(.stringArray(["dialog-information"]))]))
        #expect(notification["default-action"] == .string("app.notification-response"))
        let click = try GnomeActionTarget.decode(try #require(notification["default-action-target"]?.stringValue))
        #expect(click.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(click.notification.request.identifier == "a")
        #expect(click.notification.request.content.title == "Ada")
        #expect(!(click is UNTextInputNotificationResponse))

        guard case .array(_, let buttons)? = notification["buttons"] else { Issue.record("no buttons"); return }
        let fields = buttons.compactMap(\.variantDictionaryValue)
        #expect(fields.map { $0["label"] } == [.string("Later"), .string("Reply")])
        #expect(fields.map { $0["action"] } == [.string("app.notification-response"), .string("app.notification-response")])
        let later = try GnomeActionTarget.decode(try #require(fields[0]["target"]?.stringValue))
        let reply = try GnomeActionTarget.decode(try #require(fields[1]["target"]?.stringValue))
        #expect(later.actionIdentifier == "later" && !(later is UNTextInputNotificationResponse))
        #expect(reply.actionIdentifier == "reply" && (reply as? UNTextInputNotificationResponse)?.userText == "")
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["a"])
        await fixture.stop()
    }

    @Test("adding an identifier again replaces it in place; withdrawing sends RemoveNotification with the app id")
    func updateAndWithdraw() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.post("a", title: "First")
        try await fixture.post("b")
        try await fixture.post("a", title: "Second")
        #expect(fixture.gtk.shownIDs(of: Self.app) == ["a", "b"])
        #expect(fixture.gtk.notification(of: Self.app, id: "a")?["title"] == .string("Second"))
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier).sorted() == ["a", "b"])
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["a"])
        #expect(await eventually { fixture.gtk.calls.contains(.remove(appID: Self.app, id: "a")) })
        #expect(fixture.gtk.shownIDs(of: Self.app) == ["b"])
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["b"])
        fixture.center.removeAllDeliveredNotifications()
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app).isEmpty })
        await fixture.stop()
    }

    @Test("GNOME's InvalidApp (no desktop entry) is a typed error, and nothing is recorded as delivered")
    func invalidApp() async throws {
        let fixture = try await GnomeFixture(knownApps: [])
        await #expect(throws: GtkNotificationsError.applicationNotFound(appID: Self.app)) { try await fixture.post("a") }
        #expect(await fixture.center.deliveredNotifications().isEmpty)
        #expect(GnomeService.error(name: "org.example.Other", message: "no", appID: Self.app) == .refused(name: "org.example.Other", message: "no"))
        await fixture.stop()
    }

    @Test("a click and a button reach the delegate through org.freedesktop.Application, with the startup id as the token")
    func clickWhileRunning() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("a", userInfo: ["thread": 7])
        try await fixture.gtk.activate(appID: Self.app, id: "a", startupID: "_TIME42")
        let click = try #require(await fixture.delegate.responses.next())
        #expect(click.actionIdentifier == UNNotificationDefaultActionIdentifier)
        #expect(click.activationToken == "_TIME42")
        #expect(click.notification.request.content.userInfo["thread"] as? Int == 7)
        #expect(await fixture.center.deliveredNotifications().isEmpty)

        try await fixture.post("b")
        try await fixture.gtk.invokeButton(appID: Self.app, id: "b", index: 1)
        let reply = try #require(await fixture.delegate.responses.next() as? UNTextInputNotificationResponse)
        #expect(reply.actionIdentifier == "reply")
        #expect(reply.userText == "")
        #expect(reply.notification.request.identifier == "b")
        #expect(await fixture.delegate.responses.extra().isEmpty)
        await fixture.stop()
    }

    @Test("a center that did not post it (a relaunched app) builds the response from the target, once")
    func clickAfterRelaunch() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.post("a", userInfo: ["k": "v"])
        let relaunched = GnomeFixture.makeCenter(fixture.testBus, fixture.clock)
        let delegate = await RecordingDelegate()
        relaunched.delegate = delegate
        try await relaunched.serveApplicationInterface()
        try await fixture.gtk.invokeButton(appID: Self.app, id: "a", index: 0)
        let response = try #require(await delegate.responses.next())
        #expect(response.actionIdentifier == "later")
        #expect(response.notification.request.identifier == "a")
        #expect(response.notification.request.content.title == "Ada")
        #expect(response.notification.request.content.userInfo["k"] as? String == "v")
        #expect(response.notification.date == fixture.clock.now)
        #expect(await delegate.responses.extra().isEmpty)
        #expect(await fixture.delegate.responses.extra().isEmpty)

        // The relaunched app withdraws by identifier what an earlier launch posted.
        try await fixture.post("b")
        #expect(await relaunched.deliveredNotifications().isEmpty)
        relaunched.removeDeliveredNotifications(withIdentifiers: ["b"])
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app).isEmpty })
        await fixture.stop()
    }

    @Test("a click on what an earlier launch posted through GNOME reaches a relaunched center on another engine, from GNOME Shell only")
    func clickAfterRelaunchOnAnotherEngine() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.post("a")
        // The relaunched app chose another engine (an agent appeared meanwhile, or it was told to).
        let relaunched = UNUserNotificationCenter(
            identity: GnomeFixture.identity, bus: .address(fixture.testBus.address), clock: fixture.clock, persistent: false,
            engine: .inProcess)
        #expect(await relaunched.engineKind == .inProcess)
        let delegate = await RecordingDelegate()
        relaunched.delegate = delegate
        try await relaunched.serveApplicationInterface()

        // The genuine target from another peer than GNOME Shell is refused.
        let genuine = try #require(fixture.gtk.notification(of: Self.app, id: "a")?["default-action-target"]?.stringValue)
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let forged = try DBusMessage.methodCall(
            destination: Self.app, path: try #require(ApplicationInterface.objectPath(for: Self.app)),
            interface: "org.freedesktop.Application", member: "ActivateAction",
            body: [.string("notification-response"), .array(element: .variant, [.variant(.string(genuine))]), .variantDictionary([])])
        await #expect(throws: DBusError.self) { _ = try await connection.call(forged, timeout: .seconds(10)) }
        #expect(await delegate.responses.extra().isEmpty)

        try await fixture.gtk.invokeButton(appID: Self.app, id: "a", index: 0)
        let response = try #require(await delegate.responses.next())
        #expect(response.actionIdentifier == "later")
        #expect(response.notification.request.identifier == "a")
        #expect(response.notification.request.content.title == "Ada")
        #expect(await delegate.responses.extra().isEmpty)
        await connection.close()
        await fixture.stop()
    }

    @Test("a notification-response from another peer than GNOME Shell, or malformed, is refused with a D-Bus error and reaches no delegate")
    func forged() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.center.serveApplicationInterface()
        try await fixture.post("a")
        let genuine = try #require(fixture.gtk.notification(of: Self.app, id: "a")?["default-action-target"]?.stringValue)
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let trapping = #"{"a":"# + String(repeating: "[", count: 512)
        for target in [genuine, "not json", "{}", String(repeating: "[", count: 4000), #"{"actionIdentifier":"","notification":{}}"#, trapping] {
            let message = try DBusMessage.methodCall(
                destination: Self.app, path: try #require(ApplicationInterface.objectPath(for: Self.app)),
                interface: "org.freedesktop.Application", member: "ActivateAction",
                body: [.string("notification-response"), .array(element: .variant, [.variant(.string(target))]), .variantDictionary([])])
            await #expect(throws: DBusError.self) { _ = try await connection.call(message, timeout: .seconds(10)) }
        }
        // From GNOME's own name, a target that traps JSONDecoder is refused all the same.
        await #expect(throws: DBusError.self) {
            try await fixture.gtk.activate(appID: Self.app, action: "app.notification-response", target: trapping)
        }
        #expect(await fixture.delegate.responses.extra().isEmpty)
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["a"])
        // The same target from GNOME's connection is taken.
        try await fixture.gtk.activate(appID: Self.app, id: "a")
        #expect(await fixture.delegate.responses.next()?.notification.request.identifier == "a")
        await connection.close()
        await fixture.stop()
    }

    @Test("a trigger fires from the engine's own scheduler while the app runs")
    func trigger() async throws {
        let fixture = try await GnomeFixture()
        try await fixture.post("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        #expect(await fixture.center.pendingNotificationRequests().map(\.identifier) == ["later"])
        #expect(fixture.gtk.calls.isEmpty)
        fixture.clock.advance(by: 61)
        #expect(await eventually { fixture.gtk.shownIDs(of: Self.app) == ["later"] })
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        await fixture.stop()
    }
}

@Suite("GNOME engine: action targets, bounded both ways")
struct GnomeActionTargetTests {
    func notification(userInfo: [AnyHashable: Any], title: String = "Title", identifier: String = "id") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "Body"
        content.categoryIdentifier = "message"
        content.threadIdentifier = "thread"
        content.userInfo = userInfo
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("a target round-trips; too much user info is left out, then the texts, never the identifier and category")
    func reduction() throws {
        let whole = try #require(GnomeActionTarget.encode(notification(userInfo: ["a": 1]), date: Date(timeIntervalSince1970: 1_700_000_000), actionIdentifier: "yes", textInput: false))
        let decoded = try GnomeActionTarget.decode(whole, activationToken: "token")
        #expect(decoded.notification.request.content.userInfo["a"] as? Int == 1)
        #expect(decoded.activationToken == "token")
        #expect(decoded.notification.date == Date(timeIntervalSince1970: 1_700_000_000))

        let big = String(repeating: "x", count: 5000)
        let reduced = try #require(GnomeActionTarget.encode(notification(userInfo: ["big": big]), date: Date(timeIntervalSince1970: 1_700_000_000), actionIdentifier: "yes", textInput: true))
        #expect(reduced.utf8.count <= GnomeActionTarget.maximumBytes)
        let response = try GnomeActionTarget.decode(reduced)
        #expect(response.notification.request.content.userInfo.isEmpty)
        #expect(response.notification.request.content.title == "Title")
        #expect((response as? UNTextInputNotificationResponse)?.userText == "")

        let bare = try #require(GnomeActionTarget.encode(notification(userInfo: [:], title: big), date: Date(timeIntervalSince1970: 1_700_000_000), actionIdentifier: "yes", textInput: false))
        let bareResponse = try GnomeActionTarget.decode(bare)
        #expect(bareResponse.notification.request.content.title == "")
        #expect(bareResponse.notification.request.content.categoryIdentifier == "message")
        #expect(bareResponse.notification.request.content.threadIdentifier == "thread")
        #expect(GnomeActionTarget.encode(notification(userInfo: [:], identifier: big), date: Date(timeIntervalSince1970: 1_700_000_000), actionIdentifier: "yes", textInput: false) == nil)
    }

    /// A target as an archive of the whole response, reduced step by step until it fits: what
    /// ``GnomeActionTarget`` must make, written here the plain way.
    static func reference(_ request: UNNotificationRequest, date: Date, action: String, textInput: Bool) -> String? {
        let response = UNNotificationResponse(notification: UNNotification(date: date, request: request), actionIdentifier: action)
        guard var snapshot = try? NotificationResponseSnapshot(response) else { return nil }
        if textInput { snapshot.userText = "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func fitting() -> String? {
            guard let data = try? encoder.encode(snapshot), data.count <= GnomeActionTarget.maximumBytes else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        if let text = fitting() { return text }
        snapshot.notification.request.trigger = nil
        snapshot.notification.request.content.userInfo = [:]
        snapshot.notification.request.content.attachments = []
        snapshot.notification.request.content.localizations = nil
        if let text = fitting() { return text }
        snapshot.notification.request.content.title = ""
        snapshot.notification.request.content.subtitle = ""
        snapshot.notification.request.content.body = ""
        return fitting()
    }

    @Test("the targets of a notification's actions, archived once for all, are byte for byte the whole response's archive")
    func batchMatchesWholeArchive() throws {
        var generator = RandomRequests.Generator(state: 29)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        // Identifiers with JSON's special characters, and long ones: near the bound, one action
        // of a notification fits whole while a longer one needs the reduced form, or none fits.
        let long = String(repeating: "é", count: 1_700)
        for round in 0..<200 {
            let request = RandomRequests.request(&generator)
            var actions = [GnomeActionTarget.Action(identifier: UNNotificationDefaultActionIdentifier, textInput: false)]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                actions.append(.init(identifier: RandomRequests.text(&generator), textInput: Bool.random(using: &generator)))
            }
            if round % 10 == 0 { actions.append(.init(identifier: long, textInput: round % 20 == 0)) }
            if round % 25 == 0 { actions.append(.init(identifier: long + long + long, textInput: false)) }
            let targets = GnomeActionTarget.encode(request, date: date, actions: actions)
            #expect(targets.count == actions.count)
            for (action, target) in zip(actions, targets) {
                #expect(target == Self.reference(request, date: date, action: action.identifier, textInput: action.textInput))
            }
        }
        // A request whose whole archive is near the bound: the short action fits whole, the
        // long one only reduced.
        let near = notification(userInfo: ["pad": String(repeating: "p", count: GnomeActionTarget.maximumBytes - 900)])
        let targets = GnomeActionTarget.encode(near, date: date, actions: [.init(identifier: "ok", textInput: false), .init(identifier: long, textInput: true)])
        let whole = try GnomeActionTarget.decode(try #require(targets[0]))
        let reduced = try GnomeActionTarget.decode(try #require(targets[1]))
        #expect(whole.notification.request.content.userInfo["pad"] != nil)
        #expect(reduced.notification.request.content.userInfo.isEmpty)
        #expect((reduced as? UNTextInputNotificationResponse)?.userText == "")
    }

    @Test("a target over the bound, or not a response, is a typed error")
    func refusals() {
        #expect(throws: GnomeActionTargetError.tooLong(5000)) { try GnomeActionTarget.decode(String(repeating: "{", count: 5000)) }
        // The last two trap JSONDecoder itself (its 513th level opens at the last byte).
        let trapping = [String(repeating: "[", count: 513), #"{"a":"# + String(repeating: "[", count: 512)]
        for text in ["", "null", "[]", #"{"actionIdentifier":"x"}"#, String(repeating: "[", count: 4096)] + trapping {
            #expect(throws: GnomeActionTargetError.self) { try GnomeActionTarget.decode(text) }
        }
    }
}
