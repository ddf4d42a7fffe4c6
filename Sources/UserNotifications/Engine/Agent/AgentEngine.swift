import DBus
import DesktopNotificationsSupport
import Foundation

/// The engine of a center whose notifications live in the per-user agent
/// (`org.desktopnotifications.Agent`): each call of the center becomes a call of
/// `org.desktopnotifications.Agent1` on this engine's own private connection, so the agent
/// posts, schedules and keeps state for the app, and its notifications outlive the process.
///
/// Order: every call leaves on the caller's thread, at once, on one connection, so the agent
/// takes them in call order (it takes an app's calls one at a time, in arrival order). The
/// one exception waits in its place: an immediate request (`AddPresented`) asks the delegate
/// first and leaves with its answer, and the calls made after it leave once it has
/// (``AgentOutbox``).
///
/// The engine speaks ``AgentInterface/version`` alone: an agent that answers `Connect` with
/// another is refused (``NotificationAgentError/incompatibleVersion(agent:)``), and no call but
/// `Connect` leaves for it until an agent of the engine's version takes the name.
///
/// The engine serves `org.desktopnotifications.AgentClient1` at
/// ``AgentInterface/clientPath`` (the agent asks `WillPresent` of it, and `ServiceExtension`
/// for a push with `mutable-content`), follows the agent's
/// `Response` signal from the current owner of the agent's name, and takes the responses the
/// agent kept (`TakeResponses`) at start and whenever the agent's owner changes. Each response
/// goes to the host once, in the agent's order, and is acknowledged once the host has it.
final class AgentEngine: NotificationEngine {
    /// How long the agent has to answer `Connect` before the center gives up on it.
    static let connectDeadline: Duration = .seconds(3)
    /// The deadline of every other call: an `Add` may wait for the app's `willPresent` answer
    /// and for the notification server.
    static let callDeadline: Duration = UNUserNotificationCenter.presentationDeadline + .seconds(20)

    /// The app's identity, sent with `Connect`.
    let identity: ApplicationIdentity
    /// The engine's own connection to the agent's bus.
    let connection: DBusConnection
    /// The center.
    let host: EngineHostReference
    /// The responses told, and the agent's owner.
    let ledger = Locked(AgentResponseLedger())
    /// The order in which calls leave.
    let outbox = AgentOutbox()
    /// The version of the agent that last answered `Connect`, when it is not
    /// ``AgentInterface/version``: every call but `Connect` then fails with
    /// ``NotificationAgentError/incompatibleVersion(agent:)`` before it leaves.
    let refusedVersion = Locked<UInt32?>(nil)
    /// The content extension categories the last `Connect` named (``connectCall()``).
    let sentExtensionCategories = Locked<[String]?>(nil)
    /// Packs the adds of requests with a trigger made while one is on its way.
    let packer: AgentAddPacker
    private let handles = Locked<(export: DBusConnection.Export?, signals: DBusSignalHandle?)>((nil, nil))

    private init(identity: ApplicationIdentity, connection: DBusConnection, host: EngineHostReference) {
        self.identity = identity
        self.connection = connection
        self.host = host
        packer = AgentAddPacker(outbox: outbox)
        packer.sendThrough { [weak self] batch, answered in
            guard let self else {
                for item in batch.items { item.done(.failure(NotificationAgentError.failed("the center's agent engine is gone"))) }
                return answered()
            }
            sendPacked(batch, answered: answered)
        }
    }

    /// Serves `AgentClient1`, follows the agent's `Response` signal, connects the app to the
    /// agent and takes the responses it kept.
    ///
    /// - Parameters:
    ///   - connection: A connection of the engine's own; the engine closes it in ``close()``.
    ///   - connectDeadline: How long the agent (started by the bus when it is activatable) has
    ///     to answer `Connect`.
    /// - Throws: the agent's refusal as a typed error (``NotificationAgentError``),
    ///   ``NotificationAgentError/incompatibleVersion(agent:)`` when it answers another
    ///   interface version, or ``NotificationAgentError/failed(_:)`` when it does not answer in
    ///   time.
    static func start(
        identity: ApplicationIdentity, connection: DBusConnection, host: EngineHostReference,
        connectDeadline: Duration = AgentEngine.connectDeadline
    ) async throws -> AgentEngine {
        let engine = AgentEngine(identity: identity, connection: connection, host: host)
        do {
            try engine.serveClient()
            try await engine.followResponses()
            let reply = try await engine.call(engine.connectCall(), timeout: connectDeadline)
            try engine.connected(reply)
        } catch {
            engine.close()
            throw error
        }
        engine.takeResponses()
        return engine
    }

    /// `Connect`'s options: the name and icon the agent posts with, and the categories the
    /// host's content extensions handle (``EngineHost/contentExtensionCategories``): the agent
    /// posts those notifications resident, tells the extension each is shown
    /// (`ContentExtensionShown`) and asks it first about each response
    /// (`ContentExtensionResponse`), while this center is connected.
    func connectCall() -> Agent1Spec.Call {
        let categories = host.host?.contentExtensionCategories.sorted() ?? []
        sentExtensionCategories.withLock { $0 = categories }
        return .connect(.init(appID: identity.id, identity: [
            "name": .string(identity.displayName), "icon": .string(identity.icon),
            AgentInterface.contentExtensionCategoriesOption: .stringArray(categories),
        ]))
    }

    /// The host's content extensions changed: `Connect` again with their categories, unless
    /// the last `Connect` named the same ones (an app registers its extensions at launch,
    /// often before the engine's first `Connect`, which names them already).
    func contentExtensionsChanged() {
        let categories = host.host?.contentExtensionCategories.sorted() ?? []
        guard sentExtensionCategories.withLock({ $0 }) != categories else { return }
        sendConnect()
    }

    /// Records the agent that answered `Connect`, its unique name, when it speaks
    /// ``AgentInterface/version``.
    ///
    /// - Throws: ``NotificationAgentError/incompatibleVersion(agent:)`` when it answers another
    ///   version, or none; the engine's calls fail so until an agent answers its own.
    func connected(_ reply: DBusMessage) throws(NotificationAgentError) {
        let version = (try? Agent1Spec.ConnectReply(reply.body))?.version ?? 0
        guard version == AgentInterface.version else {
            refusedVersion.withLock { $0 = version }
            throw .incompatibleVersion(agent: version)
        }
        refusedVersion.withLock { $0 = nil }
        ledger.withLock { $0.connectedOwner = reply.sender }
    }

    /// Makes `call` to the agent and waits for its reply, at most
    /// `timeout`. The call leaves before the first suspension, on the caller's thread, unless
    /// a call before it waits in the outbox.
    ///
    /// - Throws: the agent's error, typed (``AgentErrorName/decode(_:)``).
    func call(_ call: Agent1Spec.Call, timeout: Duration = AgentEngine.callDeadline) async throws -> DBusMessage {
        let message = try message(call)
        do {
            return try await withCheckedThrowingContinuation { continuation in
                startCall(message, timeout: timeout) { continuation.resume(with: $0.mapError { $0 as any Error }) }
            }
        } catch {
            throw AgentErrorName.decode(error)
        }
    }

    /// Starts `message` through the outbox (in `place`, or next), calling `completion` with
    /// its reply.
    func startCall(
        _ message: DBusMessage, at place: AgentOutbox.Place? = nil, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) {
        let connection = self.connection
        outbox.fill(place ?? outbox.reserve()) { connection.startCall(message, timeout: timeout, completion: completion) }
    }

    /// Sends `call` at once, and logs a refusal (nobody waits for it).
    func send(_ call: Agent1Spec.Call) {
        let member = call.method
        let message: DBusMessage
        do {
            message = try self.message(call)
        } catch {
            return SubsystemLog.center.logger.error("a call to the agent was not sent", metadata: ["member": "\(member.rawValue)", "error": SubsystemLog.describe(error)])
        }
        startCall(message) { [weak self] result in
            guard case .failure(let error) = result else { return }
            self?.refused(member, AgentErrorName.decode(error), resending: message)
        }
    }

    /// Logs a refusal nobody can be told of. An agent that no longer knows the app (it was
    /// restarted, or started by this very call) gets the app connected again and, when
    /// `message` is given, the call once more, right after `Connect`: a withdrawal, a
    /// cancellation or the categories sent to an agent that had just restarted still take
    /// effect.
    func refused(_ member: Agent1Spec.Method, _ error: any Error, resending message: DBusMessage? = nil) {
        guard case NotificationAgentError.unknownApp = error else {
            return SubsystemLog.center.logger.warning("the agent refused a call", metadata: ["member": "\(member.rawValue)", "error": SubsystemLog.describe(error)])
        }
        SubsystemLog.center.logger.info("the agent no longer knew the app; connecting again", metadata: ["member": "\(member.rawValue)"])
        reconnect()
        guard let message else { return }
        startCall(message) { result in
            guard case .failure(let error) = result else { return }
            SubsystemLog.center.logger.warning(
                "the agent refused a call sent again after connecting", metadata: ["member": "\(member.rawValue)", "error": SubsystemLog.describe(AgentErrorName.decode(error))])
        }
    }

    /// Throws ``NotificationAgentError/incompatibleVersion(agent:)`` while the agent that last
    /// answered `Connect` speaks another version.
    func requireOwnVersion() throws(NotificationAgentError) {
        if let version = refusedVersion.withLock({ $0 }) { throw .incompatibleVersion(agent: version) }
    }

    /// The message of `call`: its member and typed arguments are the ones
    /// `dbus/org.desktopnotifications.Agent1.xml` gives (``Agent1Spec``), so no call of another
    /// shape can be built.
    ///
    /// - Throws: ``NotificationAgentError/incompatibleVersion(agent:)`` for any call but
    ///   `Connect` while the agent speaks another version; the bus's error when the message
    ///   cannot be built.
    func message(_ call: Agent1Spec.Call) throws -> DBusMessage {
        let member = call.method
        if member != .connect { try requireOwnVersion() }
        return try call.message(to: AgentInterface.busName, path: AgentInterface.path)
    }

    /// Keeps the export and the subscription for ``close()``.
    func keep(export: DBusConnection.Export? = nil, signals: DBusSignalHandle? = nil) {
        handles.withLock { handles in
            if let export { handles.export = export }
            if let signals { handles.signals = signals }
        }
    }

    /// The notifications live in the agent.
    func kind() async -> NotificationEngineKind { .agent }

    /// The engine itself.
    var agentEngine: AgentEngine? { self }

    func close() {
        let (export, signals) = handles.withLock { handles in
            defer { handles = (nil, nil) }
            return handles
        }
        export?.unexport()
        signals?.cancel()
        let connection = self.connection
        Task { await connection.close() }
    }
}
