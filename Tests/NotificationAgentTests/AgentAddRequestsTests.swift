import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The agent's AddRequests: many requests in one call, an answer for each")
struct AgentAddRequestsTests {
    static let appID = "org.example.AgentBatch"
    static let invalid = "org.desktopnotifications.Agent1.Error.InvalidArgument"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-batch")
    }

    /// The (error name, message) pairs of an `AddRequests` answer.
    static func results(_ values: [DBusValue]) -> [(String, String)] {
        guard case .array(_, let items)? = values.first else {
            Issue.record("AddRequests answered \(values)")
            return []
        }
        return items.map { item in
            guard case .structure(let pair) = item, pair.count == 2 else { return ("?", "?") }
            return (pair[0].stringValue ?? "?", pair[1].stringValue ?? "?")
        }
    }

    @Test("each request is added in order with its own answer; a refused one does not stop the rest")
    func answersEach() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await AgentService.start(
            bus: .address(fixture.testBus.address), clock: SystemNotificationClock(), launcher: NoAppLauncher(),
            identifying: DeclaredAppIdentity(), stateRoot: fixture.stateRoot,
            caps: AgentLimits.AddCaps(pendingRequests: 3, liveNotifications: 10))
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let records: [AgentPayload.Record] = try [
            AgentPayload.encode(AgentTestClient.request("a", after: 3600)),
            ["identifier": .string("typo"), "titel": .string("misspelt")],
            AgentPayload.encode(AgentTestClient.request("b", after: 3600)),
            // Replaces "a": taken at the cap.
            AgentPayload.encode(AgentTestClient.request("a", after: 7200)),
            AgentPayload.encode(AgentTestClient.request("c", after: 3600)),
            // Past the cap of 3 pending requests.
            AgentPayload.encode(AgentTestClient.request("d", after: 3600)),
        ]
        let results = Self.results(try await app.call("AddRequests", [.string(Self.appID), records.dbusValue]))
        #expect(results.map(\.0) == [
            "", Self.invalid, "", "", "", "org.desktopnotifications.Agent1.Error.LimitReached",
        ])
        #expect(results[1].1.contains("request has no field \"titel\""))
        #expect(try await app.pending(of: Self.appID).sorted() == ["a", "b", "c"])
        let pending = try AgentPayload.requests(from: AgentTestClient.records(try await app.call("PendingRequests", [.string(Self.appID)]).first))
        #expect((pending.first { $0.identifier == "a" }?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 7200)
        await agent.stop()
    }

    @Test("an immediate request in a batch is shown as Add shows it")
    func immediate() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let records = try [AgentPayload.encode(AgentTestClient.request("now")), AgentPayload.encode(AgentTestClient.request("later", after: 60))]
        #expect(Self.results(try await app.call("AddRequests", [.string(Self.appID), records.dbusValue])).map(\.0) == ["", ""])
        _ = await server.waitForNotify()
        #expect(server.notifications.map(\.request.summary) == ["Title of now"])
        #expect(try await app.pending(of: Self.appID) == ["later"])
        await agent.stop()
    }

    @Test("a list over the request or byte bound, or from a connection not bound to the app, is refused whole")
    func refusedWhole() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let one = try AgentPayload.encode(AgentTestClient.request("x", after: 3600))
        let tooMany = Array(repeating: one, count: AgentInterface.maximumBatchRequests + 1)
        #expect(await app.errorName(of: "AddRequests", [.string(Self.appID), tooMany.dbusValue]) == Self.invalid)
        let large: AgentPayload.Record = ["identifier": .string(String(repeating: "x", count: AgentInterface.maximumArgumentBytes / 2))]
        let tooLarge = Array(repeating: large, count: AgentInterface.maximumBatchBytes / AgentPayload.size(of: large) + 1)
        #expect(await app.errorName(of: "AddRequests", [.string(Self.appID), tooLarge.dbusValue]) == Self.invalid)
        #expect(await app.errorName(of: "AddRequests", [.string(Self.appID), one.dbusValue]) == Self.invalid)
        let other = try await AgentTestClient.connect(fixture.testBus.bus)
        #expect(await other.errorName(of: "AddRequests", [.string(Self.appID), [one].dbusValue])
            == "org.desktopnotifications.Agent1.Error.NotAllowed")
        // Nothing of the refused calls was added; the largest list allowed is taken.
        #expect(try await app.pending(of: Self.appID).isEmpty)
        let most = (0..<AgentInterface.maximumBatchRequests).map { index in
            (try? AgentPayload.encode(AgentTestClient.request("r\(index)", after: 3600))) ?? [:]
        }
        let results = Self.results(try await app.call("AddRequests", [.string(Self.appID), most.dbusValue]))
        #expect(results.count == most.count && results.allSatisfy { $0.0.isEmpty })
        #expect(try await app.pending(of: Self.appID).count == AgentInterface.maximumBatchRequests)
        await other.close()
        await agent.stop()
    }
}
