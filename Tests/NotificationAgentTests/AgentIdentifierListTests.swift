import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The identifier lists of `RemovePendingRequests`, `RemoveDeliveredNotifications` and
/// `AcknowledgeResponses` are bounded as a record argument is: a peer's longer list is refused
/// before the agent reads it, and a center sends a longer list of its own in runs that fit.
@Suite("The agent's identifier lists are bounded, and a center's long list still takes effect")
struct AgentIdentifierListTests {
    static let appID = "org.example.AgentIdentifierLists"
    static let invalid = "org.desktopnotifications.Agent1.Error.InvalidArgument"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-identifier-lists")
    }

    /// Identifiers of `bytes` bytes in all, as the bound counts them (each one's bytes and 8).
    static func identifiers(totalling bytes: Int) -> [String] {
        let each = 1_000
        var list = Array(repeating: String(repeating: "x", count: each - 8), count: bytes / each)
        let rest = bytes - list.count * each
        if rest > 0 { list.append(String(repeating: "y", count: max(0, rest - 8))) }
        return list
    }

    @Test("a peer's list one byte over 1 MiB is refused by name, for each of the three calls; one at the bound is taken")
    func peerListsBounded() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(Self.appID)
        let bound = AgentInterface.maximumArgumentBytes
        let over = Self.identifiers(totalling: bound + 1)
        let at = Self.identifiers(totalling: bound)
        #expect(AgentPayload.size(ofIdentifiers: over) == bound + 1 && AgentPayload.size(ofIdentifiers: at) == bound)
        for member in ["RemovePendingRequests", "RemoveDeliveredNotifications"] {
            #expect(await app.errorName(of: member, [.string(Self.appID), .stringArray(over), .boolean(false)]) == Self.invalid)
            // "all" does not make the list unread: it is refused all the same.
            #expect(await app.errorName(of: member, [.string(Self.appID), .stringArray(over), .boolean(true)]) == Self.invalid)
            _ = try await app.call(member, [.string(Self.appID), .stringArray(at), .boolean(false)])
        }
        #expect(await app.errorName(of: "AcknowledgeResponses", [.string(Self.appID), .stringArray(over)]) == Self.invalid)
        _ = try await app.call("AcknowledgeResponses", [.string(Self.appID), .stringArray(at)])
        // The agent still serves the app.
        try await app.add(AgentTestClient.request("later", after: 3600), for: Self.appID)
        #expect(try await app.pending(of: Self.appID) == ["later"])
        await agent.stop()
    }

    @Test("a center removing a list of 3 MiB of identifiers sends it in runs, and the requests named among them go")
    func centerSendsRuns() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: Self.appID, displayName: "Lists"), bus: .address(fixture.testBus.address), engine: .agent)
        #expect(await center.engineKind == .agent)
        for identifier in ["keep", "drop-1", "drop-2"] {
            try await center.add(AgentTestClient.request(identifier, after: 3600))
        }
        let filler = Self.identifiers(totalling: 3 * AgentInterface.maximumArgumentBytes)
        center.removePendingNotificationRequests(withIdentifiers: ["drop-1"] + filler + ["drop-2"])
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["keep"])
        await agent.stop()
    }

    @Test("runs keep the order, each fits, and an identifier over the bound alone is left out")
    func runs() {
        let bound = AgentInterface.maximumArgumentBytes
        let list = Self.identifiers(totalling: 2 * bound + 5_000) + [String(repeating: "z", count: bound), "last"]
        let runs = AgentPayload.identifierRuns(list)
        #expect(runs.count == 3)
        #expect(runs.allSatisfy { AgentPayload.size(ofIdentifiers: $0) <= bound })
        #expect(runs.flatMap { $0 } == list.filter { $0.utf8.count + 8 <= bound })
        #expect(AgentPayload.identifierRuns([]) == [[]])
    }
}
