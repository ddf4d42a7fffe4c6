import DBus
import DesktopNotificationsSupport
import UserNotifications

/// A stand-in for the per-user agent that serves `Connect`, `TakeResponses` and
/// `AcknowledgeResponses` alone, so that a test decides which `TakeResponses` call answers
/// with the kept responses: those the test keeps are given only once ``release()`` was
/// called, as the agent would have them only after a click. `Connect` answers the version the
/// agent was started with (an agent of another install answers another).
final class FakeAgent: Sendable {
    private struct State {
        var kept: [(id: String, record: AgentPayload.Record)] = []
        var released = false
        var holding = false
        var takes = 0
        var acknowledged: [String] = []
        var members: [String] = []
        var connectCategories: [[String]] = []
    }

    let connection: DBusConnection
    private let version: UInt32
    private let state = Locked(State())

    private init(connection: DBusConnection, version: UInt32) {
        self.connection = connection
        self.version = version
    }

    /// Owns the agent's name on `bus`; `Connect` answers `version`.
    static func start(on bus: DBusBus, version: UInt32 = AgentInterface.version) async throws -> FakeAgent {
        let agent = FakeAgent(connection: try await DBusConnection.connect(to: bus), version: version)
        let interface = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) {
            [agent] invocation in agent.serve(invocation)
        }
        agent.connection.export(DBusExportedObject(path: AgentInterface.path, interfaces: [interface]))
        _ = try await agent.connection.requestName(AgentInterface.busName)
        return agent
    }

    /// Keeps a response, given by `TakeResponses` once released, until it is acknowledged.
    func keep(id: String, record: AgentPayload.Record) {
        state.withLock { $0.kept.append((id, record)) }
    }

    /// From now on `TakeResponses` gives the kept responses.
    func release() {
        state.withLock { $0.released = true }
    }

    /// From now on `TakeResponses` is not answered, as a hanging agent's.
    func holdTakes() {
        state.withLock { $0.holding = true }
    }

    /// How many `TakeResponses` calls came.
    var takes: Int { state.withLock { $0.takes } }

    /// The ids acknowledged, in order.
    var acknowledged: [String] { state.withLock { $0.acknowledged } }

    /// The members called, in order.
    var members: [String] { state.withLock { $0.members } }

    /// The content extension categories each `Connect` named, in order.
    var connectCategories: [[String]] { state.withLock { $0.connectCategories } }

    /// Closes the agent's connection: the bus gives up its name.
    func stop() async {
        await connection.close()
    }

    private func serve(_ invocation: DBusMethodInvocation) {
        state.withLock { $0.members.append(invocation.message.member ?? "") }
        switch invocation.message.member {
        case "Connect":
            let options = (try? Agent1Spec.ConnectArguments(invocation.message.body))?.identity
            let categories = options?[AgentInterface.contentExtensionCategoriesOption]?.stringArrayValue ?? []
            state.withLock { $0.connectCategories.append(categories) }
            invocation.reply([.uint32(version)])
        case "TakeResponses":
            let (kept, holding) = state.withLock { state in
                state.takes += 1
                return (state.released ? state.kept : [], state.holding)
            }
            guard !holding else { return }
            invocation.reply([.array(element: .structure([.string, AgentPayload.Record.dbusType]), kept.map { .structure([.string($0.id), $0.record.dbusValue]) })])
        case "AcknowledgeResponses":
            let ids = (try? invocation.message.arguments("sas"))?[1].stringArrayValue ?? []
            state.withLock { state in
                state.acknowledged += ids
                state.kept.removeAll { ids.contains($0.id) }
            }
            invocation.reply()
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "not served by the fake agent")
        }
    }
}
