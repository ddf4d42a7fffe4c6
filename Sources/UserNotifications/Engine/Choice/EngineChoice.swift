import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging

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
/// An agent that answers `Connect` with another interface version than the center's
/// (``NotificationAgentError/incompatibleVersion(agent:)``: one left running by another
/// install) is not used: the choice goes on to GNOME's engine or in process as when no agent is
/// there, with a warning, and the reason kept as the fallback.
///
/// Why an agent asked for or found was not used (a refusal, no answer), or why the portal or
/// GNOME's engine asked for could not be reached, is kept with the choice
/// (``NotificationEngineFallback``, the center's ``UNUserNotificationCenter/engineFallback``).
///
/// The agent comes first because it does what GNOME's interface does (notifications stay
/// after the app exits, a click relaunches a D-Bus activatable app) and more: its pending
/// requests fire while the app is closed and its delivered list outlives the app. GNOME's
/// interface is the best an app has on GNOME without an agent.
enum EngineChoice {
    /// The environment variable that chooses the engine.
    static let environmentVariable = "DESKTOPNOTIFICATIONS_ENGINE"

    /// The kind asked for by `given` or by `environment`, or `nil` to choose by what the bus has.
    ///
    /// - Parameter flatpakInfo: where the sandbox check looks for Flatpak's file; another path
    ///   only in unit tests.
    static func requested(
        _ given: NotificationEngineKind?, environment: [String: String], flatpakInfo: String = SandboxCheck.flatpakInfoPath
    ) -> NotificationEngineKind? {
        if let given { return given }
        let sandboxed = { SandboxCheck.isSandboxed(environment: environment, flatpakInfo: flatpakInfo) }
        switch environment[environmentVariable] {
        case nil, "": return sandboxed() ? .portal : nil
        case "agent": return .agent
        case "in-process": return .inProcess
        case "portal": return .portal
        case "gnome": return .gnome
        case let other?:
            SubsystemLog.center.logger.warning(
                "\(environmentVariable) is none of agent, in-process, portal, gnome; ignored", metadata: ["value": "\(TerminalText.singleLine(other))"])
            return sandboxed() ? .portal : nil
        }
    }

    /// The center's engine: in process at once when that is asked for, else one that chooses.
    ///
    /// - Parameters:
    ///   - requested: The kind asked for (``requested(_:environment:)``).
    ///   - environment: Where the app's desktop entry is looked for (``ActivatableDesktopEntry``).
    ///   - stateDirectory: Where the portal and GNOME engines keep their state, or `nil` for none (the
    ///     in-process engine's folder, which `makeInProcess` has).
    ///   - locationHub: What the portal and GNOME engines watch location triggers through, or
    ///     `nil` for a hub of their own on the system bus (the in-process engine's, which
    ///     `makeInProcess` has).
    ///   - makeInProcess: Starts the in-process engine.
    static func engine(
        requested: NotificationEngineKind?, identity: ApplicationIdentity, bus: NotificationBus, host: EngineHostReference,
        clock: any NotificationClock, environment: [String: String] = ProcessInfo.processInfo.environment,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil, locationHub: LocationHub? = nil,
        makeInProcess: @escaping @Sendable () -> any NotificationEngine
    ) -> any NotificationEngine {
        if requested == .inProcess { return makeInProcess() }
        if requested == .portal {
            return ChoosingEngine {
                switch await portalEngine(
                    identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory, locationHub: locationHub) {
                case .success(let portal): (portal, .portal, nil)
                case .failure(let fallback): (makeInProcess(), .inProcess, fallback)
                }
            }
        }
        if requested == .gnome {
            return ChoosingEngine {
                switch await gnomeEngine(identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory, locationHub: locationHub, required: true) {
                case .success(let gnome?): (gnome, .gnome, nil)
                case .success(nil): (makeInProcess(), .inProcess, nil)
                case .failure(let fallback): (makeInProcess(), .inProcess, fallback)
                }
            }
        }
        return ChoosingEngine {
            let agent = await agentEngine(required: requested == .agent, identity: identity, bus: bus, host: host)
            let fallback: NotificationEngineFallback?
            switch agent {
            case .success(let agent?): return (agent, .agent, nil)
            case .success(nil): fallback = nil
            case .failure(let reason): fallback = reason
            }
            if requested == nil, ActivatableDesktopEntry.isActivatable(appID: identity.id, environment: environment),
               case .success(let gnome?) = await gnomeEngine(
                identity: identity, bus: bus, clock: clock, host: host, stateDirectory: stateDirectory, locationHub: locationHub, required: false) {
                return (gnome, .gnome, fallback)
            }
            return (makeInProcess(), .inProcess, fallback)
        }
    }

    /// GNOME's engine; `nil` when, unless `required`, `org.gtk.Notifications` has no owner; the
    /// fallback when the bus cannot be reached (logged).
    private static func gnomeEngine(
        identity: ApplicationIdentity, bus: NotificationBus, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, locationHub: LocationHub?, required: Bool
    ) async -> Result<EngineCore?, NotificationEngineFallback> {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: GnomeService.callDeadline)
        } catch {
            SubsystemLog.center.logger.error(
                "the session bus is not reachable for GNOME's notifications; notifications stay in this process",
                metadata: ["error": SubsystemLog.describe(error)])
            return .failure(NotificationEngineFallback(attempted: .gnome, reason: .unreachable(String(describing: error))))
        }
        let service = GnomeService(identity: identity, connection: connection)
        let reachable = required ? true : await service.reachable()
        guard reachable else {
            await connection.close()
            return .success(nil)
        }
        return .success(EngineCore.start(
            identity: identity, transport: ServiceTransport(service: service), clock: clock, host: host,
            stateDirectory: stateDirectory, locationHub: locationHub))
    }

    /// The agent's engine; `nil` when the agent is neither running nor activatable (and was not
    /// asked for); the fallback, logged, when it refuses the app or does not answer in time.
    private static func agentEngine(
        required: Bool, identity: ApplicationIdentity, bus: NotificationBus, host: EngineHostReference
    ) async -> Result<AgentEngine?, NotificationEngineFallback> {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: AgentEngine.connectDeadline)
        } catch {
            guard required else { return .success(nil) }
            return .failure(fallingBack(error, appID: identity.id))
        }
        let reachable = required ? true : await agentReachable(on: connection)
        guard reachable else {
            await connection.close()
            return .success(nil)
        }
        do {
            return .success(try await AgentEngine.start(identity: identity, connection: connection, host: host))
        } catch {
            await connection.close()
            return .failure(fallingBack(error, appID: identity.id))
        }
    }

    /// The portal's engine, or the fallback when the bus cannot be reached (logged).
    private static func portalEngine(
        identity: ApplicationIdentity, bus: NotificationBus, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, locationHub: LocationHub?
    ) async -> Result<EngineCore, NotificationEngineFallback> {
        do {
            let connection = try await DBusConnection.connect(to: bus.dbusBus, timeout: PortalService.callDeadline)
            let service = PortalService(identity: identity, connection: connection)
            return .success(EngineCore.start(
                identity: identity, transport: ServiceTransport(service: service), clock: clock, host: host,
                stateDirectory: stateDirectory, locationHub: locationHub))
        } catch {
            SubsystemLog.center.logger.error(
                "the session bus is not reachable for the notification portal; notifications stay in this process",
                metadata: ["error": SubsystemLog.describe(error)])
            return .failure(NotificationEngineFallback(attempted: .portal, reason: .unreachable(String(describing: error))))
        }
    }

    /// Whether the agent's name has an owner or the bus can start it.
    static func agentReachable(on connection: DBusConnection) async -> Bool {
        if (try? await connection.nameOwner(of: AgentInterface.busName)) != nil { return true }
        return (try? await connection.listActivatableNames())?.contains(AgentInterface.busName) == true
    }

    /// Logs why the agent was not used and returns it: a refusal (an error the agent named,
    /// such as ``NotificationAgentError/notAllowed(_:)`` for a second process of the app) as an
    /// error; an agent of another interface version
    /// (``NotificationAgentError/incompatibleVersion(agent:)``), no answer or a failure as a
    /// warning. The choice then goes on as when no agent is there.
    private static func fallingBack(_ error: any Error, appID: String) -> NotificationEngineFallback {
        let metadata: Logger.Metadata = ["app": "\(TerminalText.singleLine(appID))", "error": SubsystemLog.describe(error)]
        if let refusal = error as? NotificationAgentError {
            if case .incompatibleVersion = refusal {
                SubsystemLog.center.logger.warning(
                    "the notification agent running speaks another interface version; the center goes on without it", metadata: metadata)
                return NotificationEngineFallback(attempted: .agent, reason: .refused(refusal))
            }
            if case .failed = refusal {} else {
                SubsystemLog.center.logger.error("the notification agent refused the app; the center keeps its notifications without it", metadata: metadata)
                return NotificationEngineFallback(attempted: .agent, reason: .refused(refusal))
            }
        }
        SubsystemLog.center.logger.warning("the notification agent did not answer; notifications stay in this process", metadata: metadata)
        return NotificationEngineFallback(attempted: .agent, reason: .unreachable(String(describing: error)))
    }
}
