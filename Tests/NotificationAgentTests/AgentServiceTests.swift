import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The agent serving apps over a private bus")
struct AgentServiceTests {
    static let appID = "org.example.AgentApp"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent")
    }

    @Test("a post through the agent reaches the server with the app's name, icon and desktop-entry")
    func postsWithAppIdentity() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID, name: "Example App")
        try await app.add(AgentTestClient.request("now"), for: Self.appID)
        // The agent answers Add once it accepted the request; the server's Notify follows.
        _ = await server.waitForNotify()
        let posted = try #require(server.notifications.first)
        #expect(posted.request.appName == "Example App" && posted.request.appIcon == "dialog-information")
        #expect(posted.request.hints.desktopEntry == Self.appID)
        #expect(posted.sender != app.connection.uniqueName)
        await agent.stop()
    }

    @Test("pending and delivered lists round trip, and removals take effect in call order")
    func roundTrip() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        try await app.add(AgentTestClient.request("later", after: 3600), for: Self.appID)
        try await app.add(AgentTestClient.request("shown"), for: Self.appID)
        #expect(try await app.pending(of: Self.appID) == ["later"])
        // Accepted before it is shown: it is in the delivered list once the server took it.
        #expect(await eventually {
            let delivered = (try? AgentTestClient.records(try await app.call("DeliveredNotifications", [.string(Self.appID)]).first)) ?? []
            return (try? AgentPayload.notifications(from: delivered).map(\.request.identifier)) == ["shown"]
        })
        try await app.call("RemovePendingRequests", [.string(Self.appID), .stringArray(["later"]), .boolean(false)])
        #expect(try await app.pending(of: Self.appID).isEmpty)
        await agent.stop()
    }

    @Test("with gnome46 the notification and its actions stay after the app leaves: the agent is the sender")
    func outlivesTheApp() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .gnome46)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let category = UNNotificationCategory(
            identifier: "reply", actions: [UNNotificationAction(identifier: "ok", title: "OK")], intentIdentifiers: [])
        try await app.call("SetCategories", [.string(Self.appID), try AgentPayload.encode(Set([category])).dbusValue])
        try await app.add(AgentTestClient.request("kept", category: "reply"), for: Self.appID)
        let id = try #require(await server.waitForNotify())
        await app.close()
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.liveIDs == [id])
        #expect(server.actions(of: id)?.map(\.key).contains("ok") == true)
        await agent.stop()
    }

    @Test("of two categories of one identifier the agent keeps the same one, whichever order they come in, and answers it")
    func categoriesSharingAnIdentifier() async throws {
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let reply = UNNotificationCategory(
            identifier: "message", actions: [UNNotificationAction(identifier: "reply", title: "Reply")], intentIdentifiers: [])
        let delete = UNNotificationCategory(
            identifier: "message", actions: [UNNotificationAction(identifier: "delete", title: "Delete")], intentIdentifiers: [])
        let records = try AgentPayload.encode(Set([reply])) + AgentPayload.encode(Set([delete]))
        var answers: [[AgentPayload.Record]] = []
        for list in [records, records.reversed()] {
            try await app.call("SetCategories", [.string(Self.appID), list.dbusValue])
            answers.append(try AgentTestClient.records(try await app.call("Categories", [.string(Self.appID)]).first))
        }
        #expect(answers[0].count == 1)
        #expect(answers[0] == answers[1])
        // What an app's center sends for the set of both.
        #expect(answers[0] == (try AgentPayload.encode(Set([reply, delete]))))
        await app.close()
        await agent.stop()
    }

    @Test("a click after the app left is queued, taken once by its next center, and gone once acknowledged")
    func queuedResponse() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let first = try await AgentTestClient.connect(fixture.testBus.bus)
        try await first.connectApp(Self.appID)
        try await first.add(AgentTestClient.request("click-me"), for: Self.appID)
        let id = try #require(await server.waitForNotify())
        await first.close()
        #expect(await eventually { (try? await agent.statusJSON())?.contains("\"connected\":false") == true })
        server.invokeAction(id: id)
        let second = try await AgentTestClient.connect(fixture.testBus.bus)
        try await second.connectApp(Self.appID)
        var taken: [DBusValue] = []
        #expect(await eventually {
            taken = (try? await second.call("TakeResponses", [.string(Self.appID)]).first).flatMap { value in
                if case .array(_, let items) = value { return items } else { return nil }
            } ?? []
            return !taken.isEmpty
        })
        #expect(taken.count == 1)
        guard case .structure(let pair) = taken.first, let responseID = pair.first?.stringValue,
            let record = pair.last.flatMap({ try? AgentPayload.Record.reading($0) })
        else {
            Issue.record("no (id, record) pair")
            return
        }
        #expect(try AgentPayload.response(from: record).notification.request.identifier == "click-me")
        try await second.call("AcknowledgeResponses", [.string(Self.appID), .stringArray([responseID])])
        let after = try await second.call("TakeResponses", [.string(Self.appID)])
        #expect(after == [.array(element: .structure([.string, AgentPayload.Record.dbusType]), [])])
        await agent.stop()
    }

    @Test("another connection cannot see or cancel an app's requests")
    func isolation() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let owner = try await AgentTestClient.connect(fixture.testBus.bus)
        try await owner.connectApp(Self.appID)
        try await owner.add(AgentTestClient.request("mine", after: 3600), for: Self.appID)
        let other = try await AgentTestClient.connect(fixture.testBus.bus)
        try await other.connectApp("org.example.Other")
        let notAllowed = "org.desktopnotifications.Agent1.Error.NotAllowed"
        #expect(await other.errorName(of: "PendingRequests", [.string(Self.appID)]) == notAllowed)
        #expect(await other.errorName(of: "RemovePendingRequests", [.string(Self.appID), .stringArray([]), .boolean(true)]) == notAllowed)
        #expect(try await owner.pending(of: Self.appID) == ["mine"])
        #expect(await other.errorName(of: "PendingRequests", [.string("org.example.Never")]) == "org.desktopnotifications.Agent1.Error.UnknownApp")
        await agent.stop()
    }

    @Test("the default identification refuses another process's claim on a live binding and lets the same process take it over")
    func declaredIdentity() {
        let identify = DeclaredAppIdentity()
        #expect(throws: NotificationAgentError.self) {
            try identify.authorizeDeclared(sender: ":1.9", senderPID: 9, appID: Self.appID, boundSender: ":1.2", boundPID: 2)
        }
        #expect(throws: Never.self) {
            try identify.authorizeDeclared(sender: ":1.9", senderPID: 2, appID: Self.appID, boundSender: ":1.2", boundPID: 2)
            try identify.authorizeDeclared(sender: ":1.9", senderPID: 9, appID: Self.appID, boundSender: nil, boundPID: nil)
        }
    }

    @Test("past the per-app caps an Add is refused with LimitReached; a replacement, a removal's room and another app are not")
    func caps() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(
            bus: .address(fixture.testBus.address), clock: SystemNotificationClock(), launcher: NoAppLauncher(),
            identifying: DeclaredAppIdentity(), stateRoot: fixture.stateRoot, caps: AgentLimits.AddCaps(pendingRequests: 3, liveNotifications: 2))
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let limitReached = "org.desktopnotifications.Agent1.Error.LimitReached"
        func add(_ request: UNNotificationRequest, for appID: String = Self.appID) async -> String? {
            await app.errorName(of: "Add", [.string(appID), ((try? AgentPayload.encode(request)) ?? [:]).dbusValue])
        }
        for index in 0..<3 {
            #expect(await add(AgentTestClient.request("later-\(index)", after: 3600)) == nil)
        }
        #expect(await add(AgentTestClient.request("later-3", after: 3600)) == limitReached)
        #expect(await add(AgentTestClient.request("later-0", after: 7200)) == nil)
        try await app.call("RemovePendingRequests", [.string(Self.appID), .stringArray(["later-1"]), .boolean(false)])
        #expect(await add(AgentTestClient.request("later-3", after: 3600)) == nil)
        #expect(Set(try await app.pending(of: Self.appID)) == ["later-0", "later-2", "later-3"])

        #expect(await add(AgentTestClient.request("shown-0")) == nil)
        #expect(await add(AgentTestClient.request("shown-1")) == nil)
        #expect(await add(AgentTestClient.request("shown-2")) == limitReached)
        #expect(await add(AgentTestClient.request("shown-1")) == nil)

        let other = "org.example.OtherCapped"
        try await app.connectApp(other)
        #expect(await add(AgentTestClient.request("elsewhere", after: 3600), for: other) == nil)
        let status = try await agent.statusJSON()
        #expect(status.contains("\"appID\":\"\(Self.appID)\",\"connected\":true,\"delivered\":2,\"pending\":3"))
        await agent.stop()
    }

    @Test("malformed calls get D-Bus errors and the agent keeps serving")
    func malformedCalls() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let invalid = "org.desktopnotifications.Agent1.Error.InvalidArgument"
        #expect(await app.errorName(of: "Add", [.string(Self.appID), .string("{not a record")]) == invalid)
        #expect(await app.errorName(of: "Add", [.string(Self.appID), (["identifier": .uint32(1)] as AgentPayload.Record).dbusValue]) == invalid)
        #expect(await app.errorName(of: "Add", [.string(Self.appID), (["identifier": .string("x"), "extra": .boolean(true)] as AgentPayload.Record).dbusValue]) == invalid)
        let huge = String(repeating: "x", count: AgentInterface.maximumArgumentBytes + 1)
        #expect(await app.errorName(of: "Add", [.string(Self.appID), (["identifier": .string(huge)] as AgentPayload.Record).dbusValue]) == invalid)
        #expect(await app.errorName(of: "Add", [.string(Self.appID)]) == invalid)
        #expect(await app.errorName(of: "Connect", [.string("../escape"), .variantDictionary([])]) == invalid)
        #expect(await app.errorName(of: "Frobnicate", []) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(await app.errorName(of: "AddPresented", [.string(Self.appID), .string("{not a record"), .uint32(0)]) == invalid)
        let request = try AgentPayload.encode(AgentTestClient.request("now"))
        #expect(await app.errorName(of: "AddPresented", [.string(Self.appID), request.dbusValue]) == invalid)
        #expect(try await app.call("Version") == [.uint32(AgentInterface.version)])
        await agent.stop()
    }

    @Test("AddPresented shows an immediate request with the options it carries and never asks WillPresent; Add still asks")
    func addPresented() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        let asked = Locked<[String]>([])
        let client = try DBusExportedInterface(name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML) {
            invocation in
            let notification = invocation.message.body.first.flatMap { try? AgentPayload.notification(from: AgentPayload.Record.reading($0)) }
            asked.withLock { $0.append(notification?.request.identifier ?? "?") }
            invocation.reply([.uint32(UInt32(UNNotificationPresentationOptions([.banner, .list]).rawValue))])
        }
        let export = app.connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [client]))
        defer { export.unexport() }
        #expect(try await app.call("Connect", [.string(Self.appID), .variantDictionary([])]) == [.uint32(AgentInterface.version)])
        func addPresented(_ request: UNNotificationRequest, _ options: UNNotificationPresentationOptions) async -> String? {
            await app.errorName(of: "AddPresented", [
                .string(Self.appID), ((try? AgentPayload.encode(request)) ?? [:]).dbusValue, .uint32(UInt32(options.rawValue)),
            ])
        }
        #expect(await addPresented(AgentTestClient.request("shown"), [.banner, .list]) == nil)
        _ = await server.waitForNotify()
        #expect(server.notifications.map(\.request.summary) == ["Title of shown"])
        // Options that show nothing: nothing is posted, and nothing is delivered.
        #expect(await addPresented(AgentTestClient.request("hidden"), []) == nil)
        #expect(server.notifications.map(\.request.summary) == ["Title of shown"])
        #expect(await eventually {
            let delivered = (try? AgentTestClient.records(try await app.call("DeliveredNotifications", [.string(Self.appID)]).first)) ?? []
            return (try? AgentPayload.notifications(from: delivered).map(\.request.identifier)) == ["shown"]
        })
        #expect(asked.withLock { $0 }.isEmpty)
        // A request with a trigger has no options to carry: refused, and nothing is scheduled.
        let invalid = "org.desktopnotifications.Agent1.Error.InvalidArgument"
        #expect(await addPresented(AgentTestClient.request("later", after: 3600), [.banner]) == invalid)
        #expect(try await app.pending(of: Self.appID).isEmpty)
        // Add still asks the app, whose answer shows it.
        try await app.add(AgentTestClient.request("asked"), for: Self.appID)
        _ = await server.waitForNotify(count: 2)
        #expect(asked.withLock { $0 } == ["asked"])
        #expect(server.notifications.map(\.request.summary) == ["Title of shown", "Title of asked"])
        await agent.stop()
    }
}
