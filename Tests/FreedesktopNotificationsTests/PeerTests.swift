import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// End-to-end tests against peers nobody here wrote: python-dbusmock's notification_daemon
/// template and dunst as servers for ``NotificationsClient``, and libnotify's `notify-send`
/// as a client of our ``NotificationServer`` (through ``FakeNotificationServer``).
///
/// Each test starts its own private bus (and its own Xvfb and dunst where needed); the
/// harness stops every helper by its PID. A missing tool fails the test with
/// ``MissingToolError``.
enum PeerTests {}

// MARK: - Helpers

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns the last answer.
private func pollUntil(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Whether process `pid` has a handler installed for `signal`, per the `SigCgt` mask of
/// `/proc/<pid>/status`.
private func catchesSignal(_ signal: Int32, pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
          let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else {
        return false
    }
    return mask & (UInt64(1) << UInt64(signal - 1)) != 0
}

extension DunstDesktop {
    /// The unique bus name dunst serves under, asked of the bus on a connection of our own.
    func dunstName() async throws -> String {
        let connection = try await DBusConnection.connect(to: testBus.bus)
        let owner = try await connection.nameOwner(of: NotificationsInterface.busName)
        await connection.close()
        return try #require(owner)
    }

}

// MARK: - python-dbusmock as the server

extension PeerTests {
    @Suite("Peers: python-dbusmock's notification_daemon serves NotificationsClient")
    struct DBusMock {
        /// What the template's GetCapabilities answers without parameters (python-dbusmock 0.28).
        static let templateCapabilities: [NotificationCapability] = [
            "body", "body-markup", "icon-static", "image/svg+xml", "private-synchronous", "append",
            "private-icon-only", "truncation",
        ]

        @Test("GetCapabilities lacks actions, yet a Notify with actions is taken and recorded with every argument")
        func notifyRecorded() async throws {
            let testBus = try await TestBus()
            let mock = try await DBusMockServer(bus: testBus)
            let client = NotificationsClient(bus: testBus.bus)

            let capabilities = try await client.capabilities()
            #expect(capabilities == Self.templateCapabilities)
            #expect(!capabilities.contains(.actions))
            #expect(try await client.serverInformation() == NotificationServerInformation(
                name: "mock-notify", vendor: "test vendor", version: "1.0", specVersion: "1.1"))

            var request = NotifyRequest(
                appName: "PeerTests", summary: "Mock summary", body: "Mock body",
                actions: [NotificationAction(key: "ok", label: "OK")], expiry: .milliseconds(1500))
            request.hints.urgency = .critical
            request.hints.category = "im.received"
            try request.hints.setVendorHint("x-custom", .string("value"))
            let posted = try await client.notify(request)
            #expect(posted.id == 1)
            #expect(posted.server == client.serverOwner)

            // GetMethodCalls answers `([(uint64 <time>, [<arg>, ...])],)`; hints go out sorted by name.
            let expected = "[<'PeerTests'>, <uint32 0>, <''>, <'Mock summary'>, <'Mock body'>, <['ok', 'OK']>, "
                + "<{'category': <'im.received'>, 'urgency': <byte 0x02>, 'x-custom': <'value'>}>, <1500>]"
            let recorded = try await mock.getMethodCalls("Notify")
            let pattern = try Regex(#"\(\[\(uint64 \d+, "# + NSRegularExpression.escapedPattern(for: expected) + #"\)\],\)"#)
            #expect(recorded.wholeMatch(of: pattern) != nil, "GetMethodCalls(Notify) printed \(recorded)")

            await mock.stop()
            await testBus.stop()
        }

        @Test("closeNotification reaches the mock, which answers NotificationClosed(id, 1), not 3")
        func close() async throws {
            let testBus = try await TestBus()
            let mock = try await DBusMockServer(bus: testBus)
            let client = NotificationsClient(bus: testBus.bus)
            let events = EventRecorder(client.events())
            let posted = try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Close me"))

            try await client.closeNotification(id: posted.id)
            #expect(await events.next() == .closed(id: posted.id, reason: .expired, server: posted.server))
            let recorded = try await mock.getMethodCalls("CloseNotification")
            #expect(recorded.wholeMatch(of: try Regex(#"\(\[\(uint64 \d+, \[<\#(posted.id)>\]\)\],\)"#)) != nil,
                    "GetMethodCalls(CloseNotification) printed \(recorded)")
            #expect(await events.extra().isEmpty)

            await mock.stop()
            await testBus.stop()
        }

        @Test("ActionInvoked sent by EmitSignalDetailed to our connection becomes an event")
        func emittedAction() async throws {
            let testBus = try await TestBus()
            let mock = try await DBusMockServer(bus: testBus, capabilities: ["actions", "body"])
            let client = NotificationsClient(bus: testBus.bus)
            let events = EventRecorder(client.events())
            let posted = try await client.notify(NotifyRequest(
                appName: "PeerTests", summary: "Act", actions: [NotificationAction(key: "ok", label: "OK")]))
            #expect(try await client.capabilities() == [.actions, .body])
            let me = try await client.connect().uniqueName

            try await mock.emitSignal(
                name: "ActionInvoked", signature: "us", arguments: "[<uint32 \(posted.id)>, <'ok'>]", destination: me)
            #expect(await events.next() == .actionInvoked(id: posted.id, actionKey: "ok", server: posted.server))
            #expect(await events.extra().isEmpty)

            await mock.stop()
            await testBus.stop()
        }

        @Test("a broadcast signal from the mock while it owns the name carries the mock's unique name as server")
        func ownerName() async throws {
            let testBus = try await TestBus()
            let mock = try await DBusMockServer(bus: testBus)
            let client = NotificationsClient(bus: testBus.bus)
            let events = EventRecorder(client.events())
            let posted = try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Owned"))

            // Who owns the name, asked of the bus itself on another connection.
            let observer = try await DBusConnection.connect(to: testBus.bus)
            let owner = try #require(try await observer.nameOwner(of: NotificationsInterface.busName))
            #expect(try await testBus.ownerPID(of: NotificationsInterface.busName) == mock.pid)
            #expect(owner.hasPrefix(":"))
            #expect(owner != (try await client.connect().uniqueName))
            #expect(posted.server == owner)
            #expect(client.serverOwner == owner)

            try await mock.emitSignal(name: "NotificationClosed", signature: "uu", arguments: "[<uint32 \(posted.id)>, <uint32 2>]")
            #expect(await events.next() == .closed(id: posted.id, reason: .dismissed, server: owner))

            // Once the mock is gone the client says so, naming the owner it had.
            await mock.stop()
            #expect(await events.next() == .serverChanged(oldOwner: owner, newOwner: nil))
            #expect(client.serverOwner == nil)
            await observer.close()
            await testBus.stop()
        }
    }
}

// MARK: - notify-send as a client of our server

extension PeerTests {
    @Suite("Peers: notify-send (libnotify) as a client of our NotificationServer")
    struct NotifySendClient {
        @Test("every option arrives typed: app name, urgency byte 2, category, a string hint, 1500 ms")
        func options() async throws {
            let testBus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
            let notifySend = try NotifySend(bus: testBus)

            let process = try notifySend.start([
                "-a", "App", "-u", "critical", "-c", "im.received", "-h", "string:x-custom:value", "-t", "1500",
                "Summary", "Body",
            ])
            let result = try await process.result(timeout: .seconds(10))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(server.notifications.count == 1)
            let recorded = try #require(server.notifications.first)
            #expect(recorded.id == 1)
            let request = recorded.request
            #expect(request.appName == "App")
            #expect(request.summary == "Summary")
            #expect(request.body == "Body")
            #expect(request.replacesID == 0)
            #expect(request.actions.isEmpty)
            #expect(request.hints[raw: "urgency"] == .byte(2))
            #expect(request.hints.urgency == .critical)
            #expect(request.hints[raw: "category"] == .string("im.received"))
            #expect(request.hints[raw: "x-custom"] == .string("value"))
            #expect(request.expiry == .milliseconds(1500))
            // libnotify adds its own PID (notify-send runs under stdbuf, which execs it in place).
            #expect(request.hints[raw: "sender-pid"] == .int64(Int64(process.pid)))

            await server.stop()
            await testBus.stop()
        }

        @Test("-A ok=OK -A no=No --wait: both actions arrive; invoking ok prints ok and exits 0")
        func actions() async throws {
            let testBus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
            let waiting = try NotifySend(bus: testBus).start(["-A", "ok=OK", "-A", "no=No", "--wait", "Title"])

            let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "notify-send never posted: \(waiting.standardError)")
            let posted = try #require(server.notifications.first)
            #expect(posted.request.summary == "Title")
            #expect(posted.request.actions == [NotificationAction(key: "ok", label: "OK"), NotificationAction(key: "no", label: "No")])
            #expect(waiting.isRunning)

            server.invokeAction(id: id, key: "ok")
            let result = try await waiting.result(timeout: .seconds(10))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardOutput == "ok\n")
            // notify-send closes the notification itself once an action is invoked.
            #expect(server.calls.contains(.closeNotification(id: id, sender: posted.sender)))

            await server.stop()
            await testBus.stop()
        }

        @Test("--wait ends on SIGINT by PID: notify-send closes its notification and exits 0")
        func interrupted() async throws {
            let testBus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
            let waiting = try NotifySend(bus: testBus).start(["--wait", "Wait for me"])

            let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "notify-send never posted: \(waiting.standardError)")
            let sender = try #require(server.notifications.first?.sender)
            // notify-send installs its SIGINT handler only after Notify returns; a SIGINT before
            // that would kill it outright.
            #expect(await pollUntil { catchesSignal(SIGINT, pid: waiting.pid) }, "notify-send never handled SIGINT")
            #expect(waiting.isRunning)

            #expect(waiting.interrupt())
            let result = try await waiting.result(timeout: .seconds(10))
            #expect(result.status == .exited(0))
            #expect(result.standardError.contains("Wait cancelled"))
            #expect(server.calls.contains(.closeNotification(id: id, sender: sender)))
            // The server answers CloseNotification, then closes: notify-send may exit between.
            #expect(await pollUntil { server.liveIDs.isEmpty })

            await server.stop()
            await testBus.stop()
        }

        @Test("-p prints the id the server assigned")
        func printID() async throws {
            let testBus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
            let notifySend = try NotifySend(bus: testBus)

            let first = try await notifySend.run(["-p", "First"])
            let second = try await notifySend.run(["-p", "Second"])
            #expect(first.status == .exited(0) && second.status == .exited(0))
            let ids = server.notifications.compactMap(\.id)
            #expect(ids == [1, 2])
            #expect(first.standardOutput == "\(ids.first ?? 0)\n")
            #expect(second.standardOutput == "\(ids.last ?? 0)\n")

            await server.stop()
            await testBus.stop()
        }

        @Test("-r ID arrives as replaces_id and the server's answer is printed")
        func replaceID() async throws {
            let testBus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome)
            let notifySend = try NotifySend(bus: testBus)
            _ = try await notifySend.run(["First"]).check()
            _ = try await notifySend.run(["Second"]).check()

            let replaced = try await notifySend.run(["-p", "-r", "1", "First, updated"])
            #expect(replaced.status == .exited(0), "\(replaced.standardError)")
            let notifications = server.notifications
            #expect(notifications.count == 3)
            let update = try #require(notifications.last)
            #expect(update.request.replacesID == 1)
            #expect(update.request.summary == "First, updated")
            #expect(update.id == 1)
            #expect(replaced.standardOutput == "1\n")
            #expect(server.liveIDs == [1, 2])

            await server.stop()
            await testBus.stop()
        }
    }
}

// MARK: - dunst as the server

extension PeerTests {
    @Suite("Peers: dunst under Xvfb serves NotificationsClient")
    struct Dunst {
        /// What dunst 1.9 answers to GetCapabilities with the harness's configuration.
        static let capabilities: [NotificationCapability] = [
            "actions", "body", "body-hyperlinks", "icon-static", "synchronous", "private-synchronous",
            "x-canonical-private-synchronous", "x-dunst-stack-tag",
        ]

        @Test("a posted notification is displayed; once closed, dunstctl history has its summary and body")
        func post() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let events = EventRecorder(client.events())
                let posted = try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Hello dunst", body: "A body line"))
                #expect(posted.server == (try await desktop.dunstName()))
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
                // dunst keeps only closed notifications in its history.
                #expect(try await desktop.dunst.history().isEmpty)

                try await desktop.dunst.closeAll()
                #expect(await events.next() == .closed(id: posted.id, reason: .dismissed, server: posted.server))
                let history = try await desktop.dunst.history()
                #expect(history.count == 1)
                let entry = try #require(history.first)
                #expect(entry.id == Int(posted.id))
                #expect(entry.appName == "PeerTests")
                #expect(entry.summary == "Hello dunst")
                #expect(entry.body == "A body line")
            }
        }

        @Test("capabilities and server information: dunst / knopwob / 1.9.x / 1.2")
        func serverFacts() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let capabilities = try await client.capabilities()
                #expect(capabilities == Self.capabilities)
                #expect(!capabilities.contains(.bodyMarkup))
                let information = try await client.serverInformation()
                #expect(information.name == "dunst")
                #expect(information.vendor == "knopwob")
                #expect(information.version.hasPrefix("1.9."))
                #expect(information.version.hasPrefix(desktop.dunst.version))
                #expect(information.specVersion == "1.2")
                #expect(try await client.isServerAvailable())
                #expect(client.serverOwner == (try await desktop.dunstName()))
            }
        }

        @Test("closeNotification gives our client NotificationClosed(id, 3); an unknown id is answered quietly")
        func close() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let events = EventRecorder(client.events())
                let posted = try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Close me", expiry: .never))
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)

                try await client.closeNotification(id: posted.id)
                #expect(await events.next() == .closed(id: posted.id, reason: .closedByCall, server: posted.server))
                #expect(try await desktop.dunst.displayedWhenSettled() == 0)
                #expect(try await desktop.dunst.history().map(\.id) == [Int(posted.id)])

                try await client.closeNotification(id: posted.id + 100)
                #expect(await events.extra().isEmpty)
            }
        }

        @Test("closeNotifications closes every notification dunst shows, each with reason 3; an unknown id fails nothing")
        func closeMany() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let events = EventRecorder(client.events())
                var posted: [NotificationPosting] = []
                for index in 0..<5 {
                    posted.append(try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Close \(index)", expiry: .never)))
                }
                #expect(try await desktop.dunst.displayedWhenSettled() == 5)

                let ids = posted.map(\.id)
                let failures = await client.closeNotifications(ids: ids + [(ids.max() ?? 0) + 100])
                #expect(failures.isEmpty, "dunst answers an unknown id quietly: \(failures)")
                let closed = await events.next(5)
                #expect(closed.count == 5)
                let closedIDs = closed.compactMap { event -> UInt32? in
                    guard case .closed(let id, .closedByCall, _) = event else { return nil }
                    return id
                }
                #expect(closedIDs.sorted() == ids.sorted())
                #expect(try await desktop.dunst.displayedWhenSettled() == 0)
                #expect(await events.extra().isEmpty)
            }
        }

        @Test("dunstctl action reaches the posting client as actionInvoked(id, default), and no other connection")
        func action() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let events = EventRecorder(client.events())
                let bystander = NotificationsClient(bus: desktop.testBus.bus)
                let overheard = EventRecorder(bystander.events())
                try await bystander.connect()
                let posted = try await client.notify(NotifyRequest(
                    appName: "PeerTests", summary: "Click me", actions: [NotificationAction(key: "default", label: "Open")],
                    expiry: .never))
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
                #expect(bystander.serverOwner == posted.server)

                try await desktop.dunst.invokeAction()
                #expect(await events.next() == .actionInvoked(id: posted.id, actionKey: "default", server: posted.server))
                // dunst does not close on an action, and sends its signals only to the poster.
                #expect(await events.extra().isEmpty)
                #expect(await overheard.extra().isEmpty)
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
            }
        }

        @Test("replacesID updates in place: same id, one notification, no close for the old content")
        func replace() async throws {
            try await DunstDesktop.run { desktop in
                let client = NotificationsClient(bus: desktop.testBus.bus)
                let events = EventRecorder(client.events())
                let first = try await client.notify(NotifyRequest(appName: "PeerTests", summary: "Version 1", body: "old"))
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)

                let second = try await client.notify(NotifyRequest(
                    appName: "PeerTests", replacesID: first.id, summary: "Version 2", body: "new"))
                #expect(second.id == first.id)
                #expect(second.server == first.server)
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
                #expect(await events.extra().isEmpty)

                try await desktop.dunst.closeAll()
                #expect(await events.next() == .closed(id: first.id, reason: .dismissed, server: first.server))
                let history = try await desktop.dunst.history()
                #expect(history.map(\.id) == [Int(first.id)])
                #expect(history.first?.summary == "Version 2")
                #expect(history.first?.body == "new")
                #expect(await events.extra().isEmpty)
            }
        }
    }
}
