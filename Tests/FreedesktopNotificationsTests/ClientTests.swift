import Foundation
import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@Suite("NotificationsClient against the fake server")
struct ClientTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    @Test("notify returns the id and the server that assigned it; the server sees every argument")
    func notify() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        var request = NotifyRequest(appName: "App", summary: "Hello", body: "World", actions: [NotificationAction(key: "ok", label: "OK")])
        request.hints.urgency = .critical
        let posted = try await client.notify(request)
        #expect(posted.id == 1)
        #expect(posted.server == server.uniqueName)
        let recorded = try #require(server.notifications.first)
        #expect(recorded.request == request)
        #expect(recorded.sender == (try await client.connect()).uniqueName)
        #expect(try await client.notify(request).id == 2)
    }

    @Test("capabilities and server information come back typed")
    func serverFacts() async throws {
        _ = try await FakeNotificationServer.start(on: testBus.bus, personality: .dunst)
        let client = NotificationsClient(bus: testBus.bus)
        #expect(try await client.capabilities() == ServerPersonality.dunst.capabilities)
        #expect(try await client.serverInformation() == ServerPersonality.dunst.information)
        #expect(try await client.isServerAvailable())
    }

    @Test("actions, replies, activation tokens and closes arrive as events, in order")
    func events() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let first = try await client.notify(NotifyRequest(summary: "a", actions: [NotificationAction(key: "ok", label: "OK")]))
        let second = try await client.notify(NotifyRequest(summary: "b"))
        let name = server.uniqueName
        server.invokeAction(id: first.id, key: "ok", activationToken: "token-1")
        server.reply(id: second.id, text: "hi there")
        #expect(await events.next(5) == [
            .activationToken(id: first.id, token: "token-1", server: name),
            .actionInvoked(id: first.id, actionKey: "ok", server: name),
            .closed(id: first.id, reason: .dismissed, server: name),
            .replied(id: second.id, text: "hi there", server: name),
            .closed(id: second.id, reason: .dismissed, server: name),
        ])
    }

    @Test("closeNotification closes a live notification with reason 3")
    func close() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let posted = try await client.notify(NotifyRequest(summary: "bye"))
        try await client.closeNotification(id: posted.id)
        #expect(await events.next() == .closed(id: posted.id, reason: .closedByCall, server: server.uniqueName))
        #expect(server.liveIDs.isEmpty)
    }

    /// What `work` returns, or a recorded failure when it has not returned within 20 s (a
    /// batch that never finishes fails the test instead of holding it).
    private static func answered<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async throws -> Value {
        let result = Locked<Value?>(nil)
        Task {
            let value = await work()
            result.withLock { $0 = value }
        }
        _ = await eventually { result.withLock { $0 != nil } }
        return try #require(result.withLock { $0 }, "closeNotifications did not return within 20 s")
    }

    @Test("closeNotifications closes more notifications than its window, each with reason 3, and names an unknown id it could not close",
          .timeLimit(.minutes(1)))
    func closeMany() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .notificationDaemon)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let count = NotificationsClient.closeWindow * 2 + 3
        var ids: [UInt32] = []
        for index in 0..<count { ids.append(try await client.notify(NotifyRequest(summary: "n\(index)")).id) }
        let unknown = (ids.max() ?? 0) + 1000
        let sent = ids + [unknown]
        let failures = try await Self.answered { await client.closeNotifications(ids: sent) }
        #expect(failures.map(\.id) == [unknown])
        guard case .bus(.remote(let name, _))? = failures.first?.error else {
            Issue.record("the unknown id failed with \(String(describing: failures.first?.error)), not the server's error")
            return
        }
        #expect(name == "org.freedesktop.Notifications.InvalidId")
        #expect(server.liveIDs.isEmpty)
        let closed = await events.next(count)
        let closedIDs = closed.compactMap { event -> UInt32? in
            guard case .closed(let id, .closedByCall, server.uniqueName) = event else { return nil }
            return id
        }
        #expect(closed.count == count)
        #expect(closedIDs.sorted() == ids.sorted())
        let calls = server.calls.compactMap { call -> UInt32? in if case .closeNotification(let id, _) = call { id } else { nil } }
        #expect(calls.sorted() == sent.sorted())
    }

    @Test("closeNotifications without a bus names every id, with the same error, and returns", .timeLimit(.minutes(1)))
    func closeManyWithoutBus() async throws {
        let client = NotificationsClient(bus: .address("unix:path=/nonexistent/desktopnotifications-tests/bus"))
        let failures = try await Self.answered { await client.closeNotifications(ids: [4, 5, 6]) }
        #expect(failures.map(\.id) == [4, 5, 6])
        #expect(Set(failures.map { String(describing: $0.error) }).count == 1)
        #expect(await client.closeNotifications(ids: []).isEmpty)
    }

    @Test("a spoofed ActionInvoked from another peer is never an event (field note 2)")
    func spoofed() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let posted = try await client.notify(NotifyRequest(summary: "target"))
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        let me = try await client.connect().uniqueName
        for destination in [me, nil] {
            try rogue.send(.signal(
                path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "ActionInvoked",
                body: [.uint32(posted.id), .string("default")], destination: destination))
        }
        server.close(id: posted.id, reason: .expired)
        #expect(await events.next() == .closed(id: posted.id, reason: .expired, server: server.uniqueName))
        #expect(await events.extra().isEmpty)
    }

    @Test("with no server at all, spoofed signals are dropped too")
    func spoofedWithoutServer() async throws {
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let me = try await client.connect().uniqueName
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        try rogue.send(.signal(
            path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "ActionInvoked",
            body: [.uint32(1), .string("default")], destination: me))
        #expect(await events.extra().isEmpty)
    }

    @Test("a server restart is reported; the new server's ids come with its own name (field note 5)")
    func restart() async throws {
        let first = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let old = try await client.notify(NotifyRequest(summary: "before"))
        await first.stop()
        #expect(await events.next() == .serverChanged(oldOwner: first.uniqueName, newOwner: nil))
        let second = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        #expect(await events.next() == .serverChanged(oldOwner: nil, newOwner: second.uniqueName))
        let new = try await client.notify(NotifyRequest(summary: "after"))
        #expect(new.id == old.id)
        #expect(new.server != old.server)
        second.invokeAction(id: new.id)
        #expect(await events.next() == .actionInvoked(id: new.id, actionKey: "default", server: second.uniqueName))
    }

    @Test("no server: notify fails at once with noServer (field note 6)")
    func noServer() async throws {
        let client = NotificationsClient(bus: testBus.bus, callTimeout: .seconds(2))
        let start = ContinuousClock.now
        await #expect(throws: NotificationsError.self) { try await client.notify(NotifyRequest(summary: "x")) }
        do {
            _ = try await client.notify(NotifyRequest(summary: "x"))
        } catch let error {
            guard case .noServer = error else { Issue.record("expected noServer, got \(error)"); return }
        }
        // noServer (not a timeout) shows the bus answered at once; the bound only tells it from
        // libdbus's own 25 s default, loosely, because the whole suite runs in parallel on two cores.
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(try await client.isServerAvailable() == false)
    }

    @Test("a server that hangs in activation costs the call's deadline, no more (field note 6)")
    func hangingActivation() async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        try testBus.writeService(name: NotificationsInterface.busName, exec: "/bin/sleep 12")
        let client = NotificationsClient(bus: testBus.bus, callTimeout: .milliseconds(500))
        let start = ContinuousClock.now
        await #expect(throws: NotificationsError.bus(.timedOut(member: "Notify", after: .milliseconds(500)))) {
            try await client.notify(NotifyRequest(summary: "x"))
        }
        // The activated program exits after 12 s, which would end the call with an error
        // reply; the timeout above shows the client's own deadline came first. The bound is
        // loose: with every suite running at once on two cores, a task can wait seconds to run.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("a server that hangs on Notify costs the deadline, and the client stays usable")
    func hangingServer() async throws {
        var script = FakeNotificationServer.Script()
        script.hangOnNotify = true
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: script)
        // Long enough that the second call is not late itself when every suite runs at once.
        let client = NotificationsClient(bus: testBus.bus, callTimeout: .seconds(2))
        await #expect(throws: NotificationsError.bus(.timedOut(member: "Notify", after: .seconds(2)))) {
            try await client.notify(NotifyRequest(summary: "x"))
        }
        server.script = FakeNotificationServer.Script()
        #expect(try await client.notify(NotifyRequest(summary: "y")).id == 2)
    }

    @Test("an xfce-style server that closes right after replying: the close is not lost (field note 4)")
    func closesRightAway() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .xfceDoNotDisturb)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        let posted = try await client.notify(NotifyRequest(summary: "dnd"))
        #expect(await events.next() == .closed(id: posted.id, reason: .undefined, server: server.uniqueName))
    }

    @Test("bad input is a typed error and nothing reaches the server (field note 8)")
    func badInput() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let client = NotificationsClient(bus: testBus.bus)
        await #expect(throws: NotificationsError.invalidArgument(field: "summary", reason: "contains a NUL character")) {
            try await client.notify(NotifyRequest(summary: "a\u{0}b"))
        }
        _ = try await client.notify(NotifyRequest(summary: "fine"))
        #expect(server.notifications.map(\.request.summary) == ["fine"])
    }

    @Test("the bus going away: calls fail, events say so, the process lives (field note 7)")
    func busKilled() async throws {
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        let client = NotificationsClient(bus: testBus.bus)
        let events = EventRecorder(client.events())
        _ = try await client.notify(NotifyRequest(summary: "x"))
        await testBus.kill()
        #expect(await events.next() == .disconnected)
        await #expect(throws: NotificationsError.self) { try await client.notify(NotifyRequest(summary: "y")) }
    }

    @Test("the launcher-entry badge reaches a second client of the bus")
    func badge() async throws {
        let client = NotificationsClient(bus: testBus.bus)
        let dock = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await dock.subscribe(to: [DBusMatchRule(interface: LauncherEntry.interface)])
        let seen = EventRecorder(subscription.events)
        try await client.setBadge(appID: "org.example.App", count: 5)
        guard case .signal(let signal) = await seen.next() else { Issue.record("no badge signal"); return }
        #expect(signal.body.first == .string("application://org.example.App.desktop"))
        #expect(signal.body.last?.variantDictionaryValue?["count"] == .int64(5))
    }
}

@Suite("NotificationsClient across a bus restart")
struct ClientReconnectTests {
    @Test("after the bus dies, the next call connects to the new bus at the same address (field note 7)")
    func reconnects() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("bus-\(UUID().uuidString.prefix(8))").path
        let first = try await TestBus(socketPath: socket)
        _ = try await FakeNotificationServer.start(on: first.bus)
        let client = NotificationsClient(bus: .address("unix:path=\(socket)"))
        let events = EventRecorder(client.events())
        #expect(try await client.notify(NotifyRequest(summary: "before")).id == 1)
        await first.kill()
        #expect(await events.next() == .disconnected)
        try? FileManager.default.removeItem(atPath: socket)
        let second = try await TestBus(socketPath: socket)
        let server = try await FakeNotificationServer.start(on: second.bus)
        let posted = try await client.notify(NotifyRequest(summary: "after"))
        #expect(posted.server == server.uniqueName)
        #expect(server.notifications.map(\.request.summary) == ["after"])
        await second.stop()
    }
}
