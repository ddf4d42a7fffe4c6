import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// An agent served from the test: it records every call (`Connect`s counted apart), holds its
/// answer to the first `Add` until released, and answers `AddRequests` with a refusal for each
/// request whose identifier starts with "refuse"; given `firstBatchError`, it refuses the first
/// `AddRequests` whole with that D-Bus error name (as a restarted agent that no longer knows
/// the app does).
final class HoldingAgent: Sendable {
    let connection: DBusConnection
    private struct State {
        var calls: [(member: String, identifiers: [String])] = []
        var connects = 0
        var held: DBusMethodInvocation?
        var holding = true
        var firstBatchError: String?
    }
    private let state: Locked<State>
    private let export: DBusConnection.Export

    private init(connection: DBusConnection, export: DBusConnection.Export, state: Locked<State>) {
        self.connection = connection
        self.export = export
        self.state = state
    }

    static func start(on bus: DBusBus, firstBatchError: String? = nil) async throws -> HoldingAgent {
        let connection = try await DBusConnection.connect(to: bus)
        let box = Locked<HoldingAgent?>(nil)
        let interface = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) { invocation in
            box.withLock { $0 }?.take(invocation)
        }
        let agent = HoldingAgent(
            connection: connection, export: connection.export(DBusExportedObject(path: AgentInterface.path, interfaces: [interface])),
            state: Locked(State(firstBatchError: firstBatchError)))
        box.withLock { $0 = agent }
        guard try await connection.requestName(AgentInterface.busName) == .primaryOwner else {
            throw NotificationAgentError.failed("the agent's name has another owner")
        }
        return agent
    }

    /// The calls taken, in order: member and the identifiers of the requests it carried (or
    /// the identifiers it named).
    var calls: [(member: String, identifiers: [String])] { state.withLock { $0.calls } }

    /// How many times `Connect` was called.
    var connects: Int { state.withLock { $0.connects } }

    /// Answers the held `Add`, and every `Add` after it at once.
    func release() {
        let held = state.withLock { state in
            defer { state.held = nil; state.holding = false }
            return state.held
        }
        held?.reply([])
    }

    func stop() async {
        export.unexport()
        await connection.close()
    }

    private static func identifier(of value: DBusValue) -> String {
        (try? AgentPayload.request(from: AgentPayload.Record.reading(value)).identifier) ?? "?"
    }

    private func take(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let member = message.member ?? ""
        let body = Array(message.body.dropFirst())
        switch member {
        case "Connect":
            state.withLock { $0.connects += 1 }
            invocation.reply([.uint32(AgentInterface.version)])
        case "TakeResponses":
            invocation.reply([.array(element: .structure([.string, AgentPayload.Record.dbusType]), [])])
        case "Add":
            let identifier = body.first.map(Self.identifier) ?? "?"
            let hold = state.withLock { state in
                state.calls.append((member, [identifier]))
                guard state.holding, state.held == nil else { return false }
                state.held = invocation
                return true
            }
            if !hold { invocation.reply([]) }
        case "AddRequests":
            let identifiers: [String] = if case .array(_, let records)? = body.first { records.map(Self.identifier) } else { [] }
            let refusal = state.withLock { state in
                state.calls.append((member, identifiers))
                defer { state.firstBatchError = nil }
                return state.firstBatchError
            }
            if let refusal { return invocation.fail(name: refusal, message: "the first batch is refused") }
            invocation.reply([.array(element: .structure([.string, .string]), identifiers.map { identifier in
                identifier.hasPrefix("refuse")
                    ? .structure([.string("org.desktopnotifications.Agent1.Error.LimitReached"), .string("\(identifier) is past the cap")])
                    : .structure([.string(""), .string("")])
            })])
        default:
            state.withLock { $0.calls.append((member, body.first?.stringArrayValue ?? [])) }
            invocation.reply([])
        }
    }
}

@Suite("A center packs the adds made while one is on its way into AddRequests")
struct AgentPackingTests {
    static let identity = ApplicationIdentity(id: "org.example.AgentPacking", displayName: "Packing App")
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    static func attempt(_ work: () async throws -> Void) async -> Result<Void, any Error> {
        do {
            try await work()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    static func request(_ identifier: String) -> UNNotificationRequest {
        AgentTestClient.request(identifier, after: 3600)
    }

    @Test("the adds made while an Add is on its way leave as one AddRequests, in call order, each with its own answer; a call made between them keeps its place")
    func packsInOrder() async throws {
        let agent = try await HoldingAgent.start(on: testBus.bus)
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(testBus.address), engine: .agent)
        #expect(await center.engineKind == .agent)
        var adds: [(String, Task<Result<Void, any Error>, Never>)] = []
        func add(_ identifier: String) async {
            let before = await center.agentAddCounts?.requests ?? 0
            adds.append((identifier, Task { await Self.attempt { try await center.add(Self.request(identifier)) } }))
            #expect(await eventually { await center.agentAddCounts?.requests == before + 1 })
        }
        await add("a")
        #expect(await eventually { agent.calls.count == 1 })
        for identifier in ["b", "c", "refuse-d"] { await add(identifier) }
        center.removePendingNotificationRequests(withIdentifiers: ["b"])
        await add("e")
        // Nothing else left while the first Add was unanswered.
        #expect(agent.calls.map(\.member) == ["Add"])
        agent.release()
        var answers: [String: String] = [:]
        for (identifier, task) in adds {
            switch await task.value {
            case .success: answers[identifier] = "added"
            case .failure(let error): answers[identifier] = "\(error)"
            }
        }
        #expect(answers["a"] == "added" && answers["b"] == "added" && answers["c"] == "added" && answers["e"] == "added")
        #expect(answers["refuse-d"]?.contains("past the cap") == true)
        #expect(await eventually { agent.calls.count == 4 })
        let calls = agent.calls
        #expect(calls.map(\.member) == ["Add", "AddRequests", "RemovePendingRequests", "Add"])
        #expect(calls.map(\.identifiers) == [["a"], ["b", "c", "refuse-d"], ["b"], ["e"]])
        let counts = try #require(await center.agentAddCounts)
        #expect(counts.calls == 3 && counts.requests == 5)
        await agent.stop()
    }

    /// Adds "a" (held by the agent), then "b" and "c" packed behind it, and releases the agent;
    /// answers the adds' outcomes, in order.
    func addPacked(to agent: HoldingAgent) async throws -> [Result<Void, any Error>] {
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(testBus.address), engine: .agent)
        #expect(await center.engineKind == .agent)
        var adds: [Task<Result<Void, any Error>, Never>] = []
        for identifier in ["a", "b", "c"] {
            let before = await center.agentAddCounts?.requests ?? 0
            adds.append(Task { await Self.attempt { try await center.add(Self.request(identifier)) } })
            #expect(await eventually { await center.agentAddCounts?.requests == before + 1 })
            if identifier == "a" { #expect(await eventually { agent.calls.count == 1 }) }
        }
        agent.release()
        var outcomes: [Result<Void, any Error>] = []
        for add in adds { outcomes.append(await add.value) }
        return outcomes
    }

    /// ``addPacked(to:)``, expecting every add to succeed; answers the calls the agent took.
    func addPackedPair(to agent: HoldingAgent) async throws -> [(member: String, identifiers: [String])] {
        for case .failure(let error) in try await addPacked(to: agent) { Issue.record("an add failed: \(error)") }
        return agent.calls
    }

    @Test("a batch refused because the agent no longer knows the app connects again and goes once more; each add gets its answer")
    func reconnects() async throws {
        let agent = try await HoldingAgent.start(on: testBus.bus, firstBatchError: "org.desktopnotifications.Agent1.Error.UnknownApp")
        let calls = try await addPackedPair(to: agent)
        #expect(calls.map(\.member) == ["Add", "AddRequests", "AddRequests"])
        #expect(calls.map(\.identifiers) == [["a"], ["b", "c"], ["b", "c"]])
        #expect(agent.connects == 2)
        await agent.stop()
    }

    @Test("a batch refused whole (UnknownMethod) fails each of its adds, and none goes again as Add")
    func refusedBatch() async throws {
        let agent = try await HoldingAgent.start(on: testBus.bus, firstBatchError: "org.freedesktop.DBus.Error.UnknownMethod")
        var failures: [String] = []
        for case .failure(let error) in try await addPacked(to: agent) { failures.append("\(error)") }
        #expect(failures.count == 2, "\(failures)")
        #expect(failures.allSatisfy { $0.contains("the first batch is refused") }, "\(failures)")
        #expect(agent.calls.map(\.member) == ["Add", "AddRequests"])
        #expect(agent.connects == 1)
        await agent.stop()
    }

    @Test("one add at a time leaves as Add, never packed")
    func sequentialAdds() async throws {
        let agent = try await HoldingAgent.start(on: testBus.bus)
        agent.release()
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(testBus.address), engine: .agent)
        for index in 0..<5 { try await center.add(Self.request("s\(index)")) }
        #expect(agent.calls.map(\.member) == Array(repeating: "Add", count: 5))
        let counts = try #require(await center.agentAddCounts)
        #expect(counts.calls == 5 && counts.requests == 5)
        await agent.stop()
    }

    @Test("through the real agent: 300 adds at once land packed, each with its own answer past the cap")
    func realAgent() async throws {
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        let stateRoot = FileManager.default.temporaryDirectory.appendingPathComponent("agent-packing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stateRoot) }
        let agent = try await AgentService.start(
            bus: .address(testBus.address), clock: SystemNotificationClock(), launcher: NoAppLauncher(),
            identifying: DeclaredAppIdentity(), stateRoot: stateRoot, caps: AgentLimits.AddCaps(pendingRequests: 250, liveNotifications: 10))
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(testBus.address), engine: .agent)
        #expect(await center.engineKind == .agent)
        let outcomes = await withTaskGroup(of: Result<Void, any Error>.self) { group in
            for index in 0..<300 {
                group.addTask { await Self.attempt { try await center.add(Self.request("p\(index)")) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let refused = outcomes.compactMap { outcome -> (any Error)? in
            if case .failure(let error) = outcome { return error }
            return nil
        }
        #expect(outcomes.count - refused.count == 250)
        #expect(refused.count == 50 && refused.allSatisfy { error in
            if case NotificationAgentError.limitReached = error { return true }
            return false
        })
        #expect(await center.pendingNotificationRequests().count == 250)
        let counts = try #require(await center.agentAddCounts)
        #expect(counts.requests == 300 && counts.calls < counts.requests)
        await agent.stop()
    }
}
