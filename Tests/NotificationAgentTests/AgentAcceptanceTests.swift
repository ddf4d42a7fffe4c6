import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The agent answers `Add` once it accepted an immediate request (validated, attachments
/// taken, kept as its scheduled requests are), and delivers it after.
@Suite("The agent accepting a request before it is shown")
struct AgentAcceptanceTests {
    static let appID = "org.example.AcceptingApp"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-accept")
    }

    /// The notifications the app's engine lists as delivered.
    static func delivered(_ app: AgentTestClient) async -> [UNNotification] {
        do {
            return try AgentPayload.notifications(from: AgentTestClient.records(try await app.call("DeliveredNotifications", [.string(appID)]).first))
        } catch {
            Issue.record("DeliveredNotifications failed: \(error)")
            return []
        }
    }

    @Test("Add is answered while the server holds its Notify reply; the notification is delivered once the reply comes")
    func answeredBeforeTheServer() async throws {
        var script = FakeNotificationServer.Script()
        script.replyDelay = .seconds(3)
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, script: script)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        try await app.add(AgentTestClient.request("held"), for: Self.appID)
        // The server holds its reply for seconds: nothing is delivered yet, nor listed pending.
        #expect(await Self.delivered(app).isEmpty)
        #expect(try await app.pending(of: Self.appID).isEmpty)
        #expect(await eventually { await Self.delivered(app).map(\.request.identifier) == ["held"] })
        #expect(server.notifications.map(\.request.summary) == ["Title of held"])
        await agent.stop()
    }

    @Test("a delivery that fails after acceptance is logged, kept across a restart, and delivered once a server appears")
    func failureKeptAndRetried() async throws {
        let log = LogRecorder()
        SubsystemLog.agent.use(log.logger(label: "test"))
        defer { SubsystemLog.agent.use(Logger(label: "org.desktopnotifications.agent")) }
        var agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        // No notification server: the Add is still accepted.
        try await app.add(AgentTestClient.request("waiting"), for: Self.appID)
        #expect(await eventually { log.messages(about: "waiting").contains { $0.contains("not delivered") } })
        #expect(await Self.delivered(app).isEmpty)
        // Kept across a restart of the agent (its state was saved at acceptance).
        await agent.stop()
        agent = try await fixture.startAgent()
        try await app.connectApp(Self.appID)
        #expect(await Self.delivered(app).isEmpty)
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        #expect(await eventually { await Self.delivered(app).map(\.request.identifier) == ["waiting"] })
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.notifications.map(\.request.summary) == ["Title of waiting"])
        #expect(try await app.pending(of: Self.appID).isEmpty)
        await agent.stop()
    }

    @Test("a kept request whose delivery fails on a server that lost the name is delivered to the one that took it")
    func keptRetriedAfterTheServerChanged() async throws {
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        // No notification server: the Add is accepted, the request kept.
        try await app.add(AgentTestClient.request("waiting"), for: Self.appID)
        // A server takes the name and holds the agent's GetCapabilities: the kept request's
        // delivery is under way on it.
        let stalling = try await StallingServer.start(on: fixture.testBus.bus)
        #expect(await eventually { stalling.heldCalls > 0 })
        // Another takes the name while that delivery is under way, and only then the first
        // fails the call: the delivery fails after the agent learned of the new server.
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        try await Task.sleep(for: .milliseconds(200))
        stalling.failHeldCalls()
        #expect(await eventually { await Self.delivered(app).map(\.request.identifier) == ["waiting"] })
        #expect(server.notifications.map(\.request.summary) == ["Title of waiting"])
        #expect(try await app.pending(of: Self.appID).isEmpty)
        await agent.stop()
        await stalling.stop()
    }

    @Test("adds answered while the server's capabilities are still unknown are shown in the order they came, whatever the order of the server's answers")
    func orderWhileCapabilitiesUnknown() async throws {
        let stalling = try await StallingServer.start(on: fixture.testBus.bus)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        // Each add is answered at acceptance; none can be posted before the server says what it
        // shows, and it says nothing yet.
        for name in ["one", "two", "three"] { try await app.add(AgentTestClient.request(name), for: Self.appID) }
        #expect(await eventually { stalling.heldCalls > 0 })
        try await Task.sleep(for: .milliseconds(200))
        // It answers the last call first: one GetCapabilities answer per delivery, each taken in
        // a task of its own, would post the adds in reverse.
        stalling.answerHeldCallsLastFirst()
        #expect(await eventually { stalling.shown.count == 3 })
        #expect(stalling.shown == ["Title of one", "Title of two", "Title of three"])
        await agent.stop()
        await stalling.stop()
    }

    @Test("capabilities answered by a server that lost the name meanwhile are not taken as the new server's")
    func capabilitiesOfTheServerThatAnswered() async throws {
        // The first server shows no markup, and holds the agent's GetCapabilities.
        let stalling = try await StallingServer.start(on: fixture.testBus.bus, capabilities: ["body"])
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        try await app.add(Self.subtitled("first"), for: Self.appID)
        #expect(await eventually { stalling.heldCalls > 0 })
        // A server that shows markup takes the name; only then the first answers.
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        try await Task.sleep(for: .milliseconds(200))
        stalling.answerHeldCallsLastFirst()
        #expect(await eventually { await Self.delivered(app).map(\.request.identifier) == ["first"] })
        // The next delivery goes to the new server, as what it shows: markup.
        try await app.add(Self.subtitled("second"), for: Self.appID)
        #expect(await eventually { server.notifications.contains { $0.request.summary == "second" } })
        #expect(server.notifications.last?.request.body == "<b>Subtitle</b>\nBody")
        await agent.stop()
        await stalling.stop()
    }

    static func subtitled(_ identifier: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        content.subtitle = "Subtitle"
        content.body = "Body"
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("two adds of one identifier are shown in the order they came: the second replaces the first")
    func sameIdentifierInOrder() async throws {
        var script = FakeNotificationServer.Script()
        script.replyDelay = .milliseconds(300)
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, script: script)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        for version in ["first", "second"] {
            let content = UNMutableNotificationContent()
            content.title = version
            try await app.add(UNNotificationRequest(identifier: "same", content: content, trigger: nil), for: Self.appID)
        }
        let secondID = try #require(await server.waitForNotify(count: 2))
        let firstID = try #require(await server.waitForNotify(count: 1))
        #expect(server.notifications.map(\.request.summary) == ["first", "second"])
        #expect(server.notifications.last?.request.replacesID == firstID)
        #expect(secondID == firstID)
        #expect(await eventually { await Self.delivered(app).map(\.request.content.title) == ["second"] })
        await agent.stop()
    }

    @Test("an add whose request has an attachment is shown with the agent's stored copy, in order with the adds around it")
    func attachmentStored() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let (agent, app) = try await fixture.startAgent(withApp: Self.appID)
        let files = try TemporaryFolder(prefix: "agent-accept-files")
        let picture = files.url.appendingPathComponent("picture.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)).write(to: picture)
        let content = UNMutableNotificationContent()
        content.title = "with a picture"
        content.attachments = [try UNNotificationAttachment(identifier: "picture", url: picture)]
        try await app.add(AgentTestClient.request("before"), for: Self.appID)
        try await app.add(UNNotificationRequest(identifier: "pictured", content: content, trigger: nil), for: Self.appID)
        try await app.add(AgentTestClient.request("after"), for: Self.appID)
        _ = try #require(await server.waitForNotify(count: 3))
        #expect(server.notifications.map(\.request.summary) == ["Title of before", "with a picture", "Title of after"])
        let uri = try #require(server.notifications.first { $0.request.summary == "with a picture" }?.request.hints.imagePath)
        let shown = try #require(URL(string: uri)).path
        #expect(shown.hasPrefix(fixture.stateRoot.path + "/"))
        #expect(FileManager.default.contents(atPath: shown) == FileManager.default.contents(atPath: picture.path))
        await agent.stop()
    }
}

/// A notification server that holds every call until told to fail them or to answer them
/// (in the order it chooses: D-Bus lets a peer answer calls in any order), then answers at once;
/// it gives its name to whoever asks to replace it.
final class StallingServer: Sendable {
    private struct State {
        var held: [DBusMethodInvocation] = []
        var answering = false
        var nextID: UInt32 = 1
        var capabilities: [String]
        /// The summaries of the Notify calls answered, in the order answered.
        var shown: [String] = []
    }

    private let connection: DBusConnection
    private let export: DBusConnection.Export
    private let state: Locked<State>

    private init(connection: DBusConnection, export: DBusConnection.Export, state: Locked<State>) {
        self.connection = connection
        self.export = export
        self.state = state
    }

    /// Starts a server that answers `GetCapabilities` with `capabilities`.
    static func start(on bus: DBusBus, capabilities: [String] = ["body", "actions"]) async throws -> StallingServer {
        let connection = try await DBusConnection.connect(to: bus)
        let state = Locked(State(capabilities: capabilities))
        let interface = try DBusExportedInterface(
            name: NotificationsInterface.name, introspectionXML: NotificationsInterface.introspectionXML
        ) { invocation in
            let held = state.withLock { state in
                if !state.answering { state.held.append(invocation) }
                return !state.answering
            }
            if !held { answer(invocation, state) }
        }
        let export = connection.export(DBusExportedObject(path: NotificationsInterface.path, interfaces: [interface]))
        let reply = try await connection.requestName(NotificationsInterface.busName, flags: [.doNotQueue, .allowReplacement])
        try #require(reply == .primaryOwner)
        return StallingServer(connection: connection, export: export, state: state)
    }

    /// The calls received and not answered yet.
    var heldCalls: Int { state.withLock(\.held.count) }

    /// The summaries of the Notify calls answered, in the order answered.
    var shown: [String] { state.withLock(\.shown) }

    /// Fails every held call.
    func failHeldCalls() {
        for call in takeHeld() { call.fail(name: "org.freedesktop.DBus.Error.Failed", message: "the server is going away") }
    }

    /// Answers the held calls, the last received first, and every later call at once.
    func answerHeldCallsLastFirst() {
        let calls = state.withLock { state in
            state.answering = true
            defer { state.held.removeAll() }
            return state.held
        }
        for call in calls.reversed() { Self.answer(call, state) }
    }

    private func takeHeld() -> [DBusMethodInvocation] {
        state.withLock { state in
            defer { state.held.removeAll() }
            return state.held
        }
    }

    /// Answers `GetCapabilities` with the server's capabilities and `Notify` with a new id.
    private static func answer(_ call: DBusMethodInvocation, _ state: Locked<State>) {
        switch call.message.member {
        case "GetCapabilities":
            call.reply([.stringArray(state.withLock(\.capabilities))])
        case "Notify":
            let summary = call.message.body.count > 3 ? call.message.body[3].stringValue ?? "" : ""
            let id = state.withLock { state in
                state.shown.append(summary)
                defer { state.nextID += 1 }
                return state.nextID
            }
            call.reply([.uint32(id)])
        default:
            call.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "not served here")
        }
    }

    func stop() async {
        export.unexport()
        await connection.close()
    }
}

