import DBus
import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("A center serving org.freedesktop.Application")
struct ApplicationInterfaceTests {
    static let appID = "org.example.Served-App"
    static let path = "/org/example/Served_App"
    let testBus: TestBus
    let caller: DBusConnection

    init() async throws {
        testBus = try await TestBus()
        caller = try await DBusConnection.connect(to: testBus.bus)
    }

    func center(_ engine: NotificationEngineKind = .agent, id: String = appID) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: ApplicationIdentity(id: id, displayName: "Served"), bus: .address(testBus.address), persistent: engine == .agent,
            engine: engine)
    }

    /// The record the agent keeps for a click on `identifier`'s `action`.
    static func responseRecord(_ identifier: String, _ action: String) throws -> AgentPayload.Record {
        let notification = UNNotification(date: Date(), request: AgentTestClient.request(identifier))
        return try AgentPayload.encode(UNNotificationResponse(notification: notification, actionIdentifier: action))
    }

    /// Calls `member` of the served interface with `body`.
    @discardableResult
    func call(_ member: String, _ body: [DBusValue]) async throws -> DBusMessage {
        try await caller.call(DBusMessage.methodCall(
            destination: Self.appID, path: try DBusObjectPath(Self.path), interface: "org.freedesktop.Application", member: member, body: body))
    }

    /// The D-Bus error name `member` fails with, or `nil` when it succeeds.
    func errorName(_ member: String, _ body: [DBusValue]) async -> String? {
        do {
            try await call(member, body)
            return nil
        } catch {
            return (error as? DBusError)?.remoteName ?? "\(error)"
        }
    }

    static func activateResponse(_ id: String, token: String?) -> [DBusValue] {
        [.string("notification-response"), .array(element: .variant, [.variant(.string(id))]),
         .variantDictionary(token.map { [("activation-token", .string($0))] } ?? [])]
    }

    @Test("ActivateAction(notification-response) takes the kept responses in order, each once, with the click's token, and acknowledges them")
    func notificationResponse() async throws {
        let agent = try await FakeAgent.start(on: testBus.bus)
        let center = center()
        let recorder = ResponseRecorder()
        center.delegate = recorder
        try await center.serveApplicationInterface()
        #expect(await center.engineKind == .agent)
        #expect(await eventually { agent.takes == 1 })
        agent.keep(id: "r0", record: try Self.responseRecord("earlier", UNNotificationDefaultActionIdentifier))
        agent.keep(id: "r1", record: try Self.responseRecord("clicked", "yes"))
        agent.release()
        try await call("ActivateAction", Self.activateResponse("r1", token: "token-1"))
        #expect(await eventually { recorder.received == ["earlier \(UNNotificationDefaultActionIdentifier)", "clicked yes"] })
        #expect(recorder.activationTokens == [nil, "token-1"])
        #expect(await eventually { agent.acknowledged == ["r0", "r1"] })
        // A told response asks nothing of the agent; one the agent gives again is not told again.
        agent.keep(id: "r1", record: try Self.responseRecord("clicked", "yes"))
        let takes = agent.takes
        try await call("ActivateAction", Self.activateResponse("r1", token: "token-1"))
        #expect(agent.takes == takes)
        try await call("ActivateAction", Self.activateResponse("r2", token: nil))
        #expect(agent.takes == takes + 1)
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.received.count == 2)
    }

    @Test("responses taken before a delegate is set wait for it, then reach it once")
    func responsesWaitForTheDelegate() async throws {
        let agent = try await FakeAgent.start(on: testBus.bus)
        agent.keep(id: "r0", record: try Self.responseRecord("launched", "yes"))
        agent.release()
        let center = center()
        try await center.serveApplicationInterface()
        #expect(await eventually { agent.acknowledged == ["r0"] })
        try await Task.sleep(for: .milliseconds(100))
        let recorder = ResponseRecorder()
        center.delegate = recorder
        #expect(await eventually { recorder.received == ["launched yes"] })
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.received.count == 1)
    }

    @Test("unknown actions and methods, and malformed or oversized arguments, get D-Bus errors; the center goes on")
    func hostileCalls() async throws {
        _ = try await FakeAgent.start(on: testBus.bus)
        let center = center()
        try await center.serveApplicationInterface()
        let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        let empty = DBusValue.variantDictionary([])
        #expect(await errorName("ActivateAction", [.string("quit"), .array(element: .variant, []), empty]) == invalid)
        #expect(await errorName("ActivateAction", [.string("notification-response"), .array(element: .variant, []), empty]) == invalid)
        #expect(await errorName("ActivateAction", [.string("notification-response"), .array(element: .variant, [.variant(.int32(5))]), empty]) == invalid)
        #expect(await errorName("ActivateAction", Self.activateResponse(String(repeating: "x", count: 5000), token: nil)) == invalid)
        #expect(await errorName("ActivateAction", Self.activateResponse("r", token: String(repeating: "t", count: 5000))) == invalid)
        #expect(await errorName("ActivateAction", [.string("notification-response")]) == invalid)
        #expect(await errorName("Open", [.stringArray(["not a uri"]), empty]) == invalid)
        #expect(await errorName("Open", [.stringArray(Array(repeating: "file:///a", count: 1025)), empty]) == invalid)
        #expect(await errorName("Quit", []) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(await errorName("Activate", [empty]) == nil)
        withExtendedLifetime(center) {}
    }

    @Test("at most 16 notification responses are taken at once; one more gets LimitsExceeded")
    func responsesInTheTakingAreBounded() async throws {
        let agent = try await FakeAgent.start(on: testBus.bus)
        agent.holdTakes()
        let center = center()
        try await center.serveApplicationInterface()
        #expect(await center.engineKind == .agent)
        // The center's own take at start, then 16 more, none answered (the center's deadline
        // for each is 3 s).
        #expect(await eventually { agent.takes == 1 })
        let waiting = (0..<16).map { index in
            Task { await errorName("ActivateAction", Self.activateResponse("r\(index)", token: nil)) }
        }
        #expect(await eventually { agent.takes == 17 })
        #expect(await errorName("ActivateAction", Self.activateResponse("r16", token: nil)) == "org.freedesktop.DBus.Error.LimitsExceeded")
        waiting.forEach { $0.cancel() }
    }

    @Test("Activate and Open reach the handlers on the main actor with the activation token; without handlers they do nothing")
    func activateAndOpen() async throws {
        let center = center(.inProcess)
        try await center.serveApplicationInterface()
        #expect(await errorName("Activate", [.variantDictionary([])]) == nil)
        let activations = Locked<[ApplicationActivation]>([])
        let opened = Locked<[[URL]]>([])
        center.applicationActivateHandler = { activation in
            MainActor.assertIsolated()
            activations.withLock { $0.append(activation) }
        }
        center.applicationOpenHandler = { urls, activation in
            opened.withLock { $0.append(urls) }
            activations.withLock { $0.append(activation) }
        }
        try await call("Activate", [.variantDictionary([("desktop-startup-id", .string("startup-1"))])])
        try await call("Open", [.stringArray(["file:///tmp/a%20b.txt", "https://example.org/x"]), .variantDictionary([("activation-token", .string("open-1"))])])
        #expect(await eventually { activations.withLock { $0.count } == 2 })
        #expect(activations.withLock { $0 } == [ApplicationActivation(activationToken: "startup-1"), ApplicationActivation(activationToken: "open-1")])
        #expect(opened.withLock { $0 } == [[URL(string: "file:///tmp/a%20b.txt")!, URL(string: "https://example.org/x")!]])
    }

    @Test("the center serves exactly the interface element of dbus/ for org.freedesktop.Application")
    func servesTheFile() async throws {
        let center = center(.inProcess)
        try await center.serveApplicationInterface()
        let served = try await AgentInterfaceTests.introspect(Self.appID, try DBusObjectPath(Self.path), on: testBus.bus)
        let element = try AgentInterfaceTests.interfaceElement("org.freedesktop.Application.xml")
        #expect(served.components(separatedBy: element + "\n").count == 2, "the file is not served as written:\n\(served)")
        withExtendedLifetime(center) {}
    }

    @Test("an in-process center refuses a notification response; a second server of the id and an id that is no bus name are refused")
    func refusals() async throws {
        let center = center(.inProcess)
        try await center.serveApplicationInterface()
        try await center.serveApplicationInterface()
        #expect(await errorName("ActivateAction", Self.activateResponse("r", token: nil)) == "org.freedesktop.DBus.Error.NotSupported")
        await #expect(throws: ApplicationInterfaceError.nameTaken(Self.appID)) {
            try await self.center(.inProcess).serveApplicationInterface()
        }
        await #expect(throws: ApplicationInterfaceError.invalidApplicationID("app")) {
            try await self.center(.inProcess, id: "app").serveApplicationInterface()
        }
    }
}
