import DBus
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@Suite("The fake server when a poster leaves the bus (field note 18)")
struct PosterDepartureTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    static let buttons = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "ok", label: "OK")]

    static var matched: NotifyRequest {
        var request = NotifyRequest(appName: "Example", summary: "from an installed app", actions: buttons)
        request.hints.desktopEntry = "org.example.App"
        return request
    }

    static let unmatched = NotifyRequest(appName: "Example", summary: "from no app in particular", actions: buttons)

    /// Closes `poster`'s connection and returns once the server has handled its departure:
    /// the bus sends `NameOwnerChanged` to every subscriber, the server among them, before it
    /// carries a later call of `bystander` to the server, whose connection reads in order.
    func leave(_ poster: NotificationsClient, bystander: NotificationsClient) async throws {
        let name = try await poster.connect().uniqueName
        let watcher = try await DBusConnection.connect(to: testBus.bus)
        let departures = EventRecorder(try await watcher.subscribe(to: [DBusMatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            arguments: [0: name])]).events)
        await poster.disconnect()
        guard case .signal(let signal) = await departures.next() else {
            Issue.record("the bus never said \(name) left")
            return
        }
        #expect(signal.body == [.string(name), .string(name), .string("")])
        _ = try await bystander.capabilities()
        await watcher.close()
    }

    @Test("gnome46 closes the departed poster's app-matched notification and keeps the other, actions and all")
    func gnome46ClosesMatched() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome46)
        let poster = NotificationsClient(bus: testBus.bus)
        let bystander = NotificationsClient(bus: testBus.bus)
        let matched = try await poster.notify(Self.matched).id
        let unmatched = try await poster.notify(Self.unmatched).id
        #expect(server.liveIDs == [matched, unmatched])
        try await leave(poster, bystander: bystander)
        #expect(await eventually { server.liveIDs == [unmatched] })
        #expect(server.actions(of: matched) == nil)
        #expect(server.actions(of: unmatched) == Self.buttons)
    }

    @Test("gnome46 sends NotificationClosed(id, 2) for it by the signal rule: to the gone poster, or to all",
          arguments: [true, false])
    func gnome46CloseSignal(unicast: Bool) async throws {
        var personality = ServerPersonality.gnome46
        personality.unicastSignals = unicast
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: personality)
        let poster = NotificationsClient(bus: testBus.bus)
        let bystander = NotificationsClient(bus: testBus.bus)
        let seen = EventRecorder(bystander.events())
        _ = try await bystander.capabilities()
        let matched = try await poster.notify(Self.matched).id
        _ = try await poster.notify(Self.unmatched)
        try await leave(poster, bystander: bystander)
        let expected: [NotificationEvent] = unicast ? [] : [.closed(id: matched, reason: .dismissed, server: server.uniqueName)]
        #expect(await seen.extra(after: .milliseconds(500)) == expected)
    }

    @Test("a poster that leaves before its delayed reply: gnome46 closes the notification once it is shown")
    func gnome46LateAnswer() async throws {
        var script = FakeNotificationServer.Script()
        // Long, so that the poster is surely gone before the answer, even on a loaded machine.
        script.replyDelay = .seconds(4)
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome46, script: script)
        let poster = NotificationsClient(bus: testBus.bus)
        let bystander = NotificationsClient(bus: testBus.bus)
        let pending = Task { try? await poster.notify(Self.matched) }
        await server.waitForCalls { $0.count == 1 }
        try await leave(poster, bystander: bystander)
        #expect(server.notifications.first?.id == nil, "answered before the poster left")
        #expect(await pending.value == nil)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)))
        #expect(id == 1)
        #expect(await eventually { server.liveIDs.isEmpty })
    }

    @Test("personalities that keep a departed poster's notifications keep them, with their actions",
          arguments: [
              ServerPersonality.gnome, .gnome43, .kde, .plasma5, .dunst, .mako, .xfce, .notificationDaemon,
          ])
    func keep(personality: ServerPersonality) async throws {
        #expect(personality.posterDeparture == .keep)
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: personality)
        let poster = NotificationsClient(bus: testBus.bus)
        let bystander = NotificationsClient(bus: testBus.bus)
        let matched = try await poster.notify(Self.matched).id
        let unmatched = try await poster.notify(Self.unmatched).id
        try await leave(poster, bystander: bystander)
        #expect(server.liveIDs == [matched, unmatched])
        #expect(server.actions(of: matched) == Self.buttons)
        #expect(server.actions(of: unmatched) == Self.buttons)
    }

    @Test("kdeStripsActions keeps a departed poster's notification without actions: a click or a reply sends nothing")
    func stripActions() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kdeStripsActions)
        let poster = NotificationsClient(bus: testBus.bus)
        let stayer = NotificationsClient(bus: testBus.bus)
        let bystander = NotificationsClient(bus: testBus.bus)
        let seen = EventRecorder(bystander.events())
        _ = try await bystander.capabilities()
        let gone = try await poster.notify(Self.matched).id
        let kept = try await stayer.notify(Self.unmatched).id
        try await leave(poster, bystander: bystander)
        #expect(await eventually { server.actions(of: gone) == [] })
        #expect(server.liveIDs == [gone, kept])
        #expect(server.actions(of: kept) == Self.buttons)

        server.invokeAction(id: gone, key: "ok")
        server.invokeAction(id: gone)
        server.reply(id: gone, text: "too late")
        server.invokeAction(id: kept, key: "ok")
        let name = server.uniqueName
        #expect(await seen.next(2) == [
            .actionInvoked(id: kept, actionKey: "ok", server: name),
            .closed(id: kept, reason: .dismissed, server: name),
        ])
        #expect(await seen.extra() == [])
        #expect(server.liveIDs == [gone])
    }

    @Test("gnome46 is gnome43 with version 46.0 and the departure rule; kdeStripsActions is kde with its rule")
    func personalities() {
        var gnome = ServerPersonality.gnome46
        #expect(gnome.posterDeparture == .closeMatched)
        #expect(gnome.information.version == "46.0")
        #expect(gnome.maximumPerSender == 3)
        gnome.name = "gnome43"
        gnome.posterDeparture = .keep
        gnome.information.version = "43.9"
        #expect(gnome == .gnome43)
        var kde = ServerPersonality.kdeStripsActions
        #expect(kde.posterDeparture == .stripActions)
        kde.name = "kde"
        kde.posterDeparture = .keep
        #expect(kde == .kde)
    }
}
