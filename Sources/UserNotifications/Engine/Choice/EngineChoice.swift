import DBus
import Foundation
import FreedesktopNotifications

/// How a center's engine is chosen (see ``NotificationEngineKind``).
///
/// The kind asked for is the center's parameter, else `DESKTOPNOTIFICATIONS_ENGINE` (`agent`,
/// `in-process`, `portal`, `gnome`; any other value is logged and ignored), else the portal in
/// a sandbox (``SandboxCheck``), else none. The portal and GNOME's engine, asked for, are made
/// in a ``ChoosingEngine`` on a connection of their own. In process, asked for, is made at
/// once. Otherwise the choice runs in a ``ChoosingEngine`` on a connection of its own:
///
/// 1. the agent, when `org.desktopnotifications.Agent` has an owner or is activatable (skipped
///    when the agent is asked for) and the app connects to it (``AgentEngine/connectDeadline``);
/// 2. else GNOME's engine, when nothing asked for the agent, `org.gtk.Notifications` has an
///    owner (the session is GNOME) and the app is D-Bus activatable
///    (``ActivatableDesktopEntry``);
/// 3. else in process, which is logged when the agent was asked for or found.
///
/// The agent comes first because it does what GNOME's interface does (notifications stay
/// after the app exits, a click relaunches a D-Bus activatable app) and more: its pending
/// requests fire while the app is closed and its delivered list outlives the app. GNOME's
/// interface is the best an app has on GNOME without an agent.
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
        case "gnome": return .gnome
        case let other?:
            CenterLog.logger.warning(
                "\(environmentVariable) is none of agent, in-process, portal, gnome; ignored", metadata: ["value": "\(TerminalText.singleLine(other))"])
            return SandboxCheck.isSandboxed(environment: environment) ? .portal : nil
        }
    }

    /// The center's engine: in process at once when that is asked for, else one that chooses.
    ///
    /// - Parameters:
    ///   - requested: The kind asked for (``requested(_:environment:)``).
    ///   - environment: Where the app's desktop entry is looked for (``ActivatableDesktopEntry``).
    ///   - stateDirectory: Where the portal and GNOME engines keep their state, or `nil` for none (the
    ///     in-process engine's folder, which `makeInProcess` has).
    ///   - makeInProcess: Starts the in-process engine.
    static func engine(
        requested: NotificationEngineKind?, identity: ApplicationIdentity, bus: NotificationBus, host: EngineHostReference,
        clock: any NotificationClock, environment: [String: String] = ProcessInfo.processInfo.environment,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil,
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
        if requested == .gnome {
            return ChoosingEngine {
                guard let gnome = await gnomeEngine(
                    identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory, required: true) else {
                    return (makeInProcess(), .inProcess)
                }
                return (gnome, .gnome)
            }
        }
        return ChoosingEngine {
            if let agent = await agentEngine(required: requested == .agent, identity: identity, bus: bus, host: host) {
                return (agent, .agent)
            }
            if requested == nil, ActivatableDesktopEntry.isActivatable(appID: identity.id, environment: environment),
               let gnome = await gnomeEngine(
                identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory, required: false) {
                return (gnome, .gnome)
            }
            return (makeInProcess(), .inProcess)
        }
    }

    /// GNOME's engine, or `nil` when the bus cannot be reached (logged) or, unless `required`,
    /// when `org.gtk.Notifications` has no owner.
    private static func gnomeEngine(
        identity: ApplicationIdentity, bus: NotificationBus, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, required: Bool
    ) async -> GnomeEngine? {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: GnomeEngine.callDeadline)
        } catch {
            CenterLog.logger.error(
                "the session bus is not reachable for GNOME's notifications; notifications stay in this process",
                metadata: ["error": CenterLog.describe(error)])
            return nil
        }
        let engine = GnomeEngine(identity: identity, connection: connection, clock: clock, host: host, stateDirectory: stateDirectory)
        let reachable = required ? true : await engine.reachable()
        guard reachable else {
            engine.close()
            return nil
        }
        return engine
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
