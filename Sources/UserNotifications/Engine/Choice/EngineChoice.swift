import DBus
import Foundation
import FreedesktopNotifications

/// How a center's engine is chosen (see ``NotificationEngineKind``).
///
/// The kind asked for is the center's parameter, else `DESKTOPNOTIFICATIONS_ENGINE` (`agent`,
/// `in-process`, `portal`; any other value is logged and ignored), else the portal in a sandbox
/// (``SandboxCheck``), else none. The portal, asked for, is made in a ``ChoosingEngine`` on a
/// connection of its own. In process, asked for, is
/// made at once. Otherwise the choice runs in a ``ChoosingEngine``: on a connection of its own
/// the center asks the bus whether `org.desktopnotifications.Agent` has an owner or is
/// activatable (skipped when the agent is asked for) and, if so, connects the app to it
/// (``AgentEngine/connectDeadline``). An agent that is absent, refuses, or does not answer in
/// time leaves the center in process, which is logged when the agent was asked for or found.
enum EngineChoice {
    /// The environment variable that chooses the engine.
    static let environmentVariable = "DESKTOPNOTIFICATIONS_ENGINE"

    /// The kind asked for by `given` or by `environment`, or `nil` to choose by what the bus has.
    static func requested(_ given: NotificationEngineKind?, environment: [String: String]) -> NotificationEngineKind? {
        if let given { return given }
        switch environment[environmentVariable] {
        case nil, "": return SandboxCheck.isSandboxed(environment: environment) ? .portal : nil
        case "agent": return .agent
        case "in-process": return .inProcess
        case "portal": return .portal
        case let other?:
            CenterLog.logger.warning(
                "\(environmentVariable) is none of agent, in-process, portal; ignored", metadata: ["value": "\(TerminalText.singleLine(other))"])
            return SandboxCheck.isSandboxed(environment: environment) ? .portal : nil
        }
    }

    /// The center's engine: in process at once when that is asked for, else one that chooses.
    ///
    /// - Parameters:
    ///   - requested: The kind asked for (``requested(_:environment:)``).
    ///   - stateDirectory: Where the portal engine keeps its state, or `nil` for none (the
    ///     in-process engine's folder, which `makeInProcess` has).
    ///   - makeInProcess: Starts the in-process engine.
    static func engine(
        requested: NotificationEngineKind?, identity: ApplicationIdentity, bus: NotificationBus, host: EngineHostReference,
        clock: any NotificationClock, stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil,
        makeInProcess: @escaping @Sendable () -> any NotificationEngine
    ) -> any NotificationEngine {
        if requested == .inProcess { return makeInProcess() }
        if requested == .portal {
            return ChoosingEngine {
                let portal = await portalEngine(identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory)
                guard let portal else {
                    return (makeInProcess(), .inProcess)
                }
                return (portal, .portal)
            }
        }
        return ChoosingEngine {
            guard let agent = await agentEngine(required: requested == .agent, identity: identity, bus: bus, host: host) else {
                return (makeInProcess(), .inProcess)
            }
            return (agent, .agent)
        }
    }

    /// The agent's engine, or `nil` when the agent is not there or does not answer in time.
    private static func agentEngine(
        required: Bool, identity: ApplicationIdentity, bus: NotificationBus, host: EngineHostReference
    ) async -> AgentEngine? {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: AgentEngine.connectDeadline)
        } catch {
            if required { fallingBack(error) }
            return nil
        }
        let reachable = required ? true : await agentReachable(on: connection)
        guard reachable else {
            await connection.close()
            return nil
        }
        do {
            return try await AgentEngine.start(identity: identity, connection: connection, host: host)
        } catch {
            fallingBack(error)
            await connection.close()
            return nil
        }
    }

    /// The portal's engine, or `nil` when the bus cannot be reached (logged).
    private static func portalEngine(
        identity: ApplicationIdentity, bus: NotificationBus, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?
    ) async -> PortalEngine? {
        do {
            let connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: PortalEngine.callDeadline)
            return await PortalEngine.start(
                identity: identity, connection: connection, clock: clock, host: host, stateDirectory: stateDirectory)
        } catch {
            CenterLog.logger.error(
                "the session bus is not reachable for the notification portal; notifications stay in this process",
                metadata: ["error": CenterLog.describe(error)])
            return nil
        }
    }

    /// Whether the agent's name has an owner or the bus can start it.
    static func agentReachable(on connection: DBusConnection) async -> Bool {
        if (try? await connection.nameOwner(of: AgentInterface.busName)) != nil { return true }
        return (try? await connection.listActivatableNames())?.contains(AgentInterface.busName) == true
    }

    private static func fallingBack(_ error: any Error) {
        CenterLog.logger.warning(
            "the notification agent did not answer; notifications stay in this process", metadata: ["error": CenterLog.describe(error)])
    }
}
