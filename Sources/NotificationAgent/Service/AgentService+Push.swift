import DBus
import DesktopNotificationsSupport
import Foundation
import UserNotifications

extension AgentService {
    /// `org.desktopnotifications.AgentPush1`, exported beside `Agent1` at the agent's object.
    func pushInterface() throws -> DBusExportedInterface {
        try DBusExportedInterface(name: AgentPushInterface.name, introspectionXML: AgentPushInterface.introspectionXML) {
            [weak self] invocation in
            guard let self else { return invocation.fail(name: AgentErrorName.prefix + "Failed", message: "the agent is stopping") }
            routePush(invocation)
        }
    }

    /// Serves `org.unifiedpush.Connector2` for every app and takes messages again for the apps
    /// registered before; a pushed request is added to its app in the app's call order. A
    /// mutable one goes to the app's service extension first, in a task of its own: the
    /// extension may take its whole deadline, and no other push (of any app) or call of the
    /// app waits for it, so it is added once its content is back, after pushes that came later.
    func startPush() throws {
        let push = try AgentPush(connection: connection, serviceName: AgentInterface.busName, stateRoot: stateRoot) {
            [weak self] appID, request, mutable in
            guard let app = self?.apps.withLock({ $0[appID] }) else {
                return SubsystemLog.agent.logger.warning("a push for an app the agent does not hold was dropped", metadata: ["app": "\(appID)"])
            }
            guard mutable else {
                await self?.addPushed(request, to: app)
                return
            }
            Task { [weak self] in await self?.addPushed(await app.host.serviceExtensionRequest(for: request), to: app) }
        }
        push.restore(apps.withLock { Array($0.keys) })
        pushSide.withLock { $0 = push }
    }

    /// Adds a pushed request to `app` on its queue, in order with its calls, bounded as `Add`
    /// bounds a request: at most ``AgentLimits/requestBytes`` as a record, its bytes counted
    /// against the app's and the agent's budgets, and its attachments (which only content a
    /// service extension gave back can have) taken as `Add` takes them, within
    /// ``AgentLimits/attachmentsPerRequest`` and the attachment budgets, and refused from a
    /// sandboxed app (``addWithFiles(_:bytes:sources:to:presentation:accepted:)``). A refusal
    /// is logged.
    func addPushed(_ request: UNNotificationRequest, to app: AgentApp) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            app.work.enqueue { [self] in
                do {
                    let bytes = AgentPayload.size(of: try AgentPayload.encode(request))
                    try Self.checkRequestBytes(bytes)
                    if request.content.attachments.isEmpty {
                        try await app.add(request, travelBytes: bytes, othersBytes: othersBytes(app))
                    } else {
                        try await addWithFiles(request, bytes: bytes, sources: nil, to: app, presentation: nil, accepted: nil)
                    }
                    SubsystemLog.agent.logger.info("a push was added", metadata: ["app": "\(app.appID)", "identifier": "\(request.identifier)"])
                } catch {
                    SubsystemLog.agent.logger.warning("a pushed request was not added", metadata: ["app": "\(app.appID)", "error": "\(error)"])
                }
                done.resume()
            }
        }
    }

    /// Takes an `AgentPush1` call: checks its shape, its app id and that the sender is the
    /// app's bound connection, then runs it on the app's queue.
    func routePush(_ invocation: DBusMethodInvocation) {
        touched()
        let message = invocation.message
        let sender = message.sender ?? ""
        let call: AgentPush1Spec.Call
        do throws(DBusCallRefusal) {
            call = try AgentPush1Spec.Call(message)
        } catch {
            return Self.fail(invocation, error)
        }
        let (appID, options) = switch call {
        case .register(let arguments): (arguments.appID, arguments.options)
        case .unregister(let arguments): (arguments.appID, [String: DBusValue]())
        }
        guard let app = apps.withLock({ $0[appID] }), let push = pushSide.withLock({ $0 }) else {
            return Self.fail(invocation, NotificationAgentError.unknownApp("\(appID): call Connect first"))
        }
        for key in ["distributor", "description"] where (options[key]?.stringValue?.utf8.count ?? 0) > AgentLimits.displayNameBytes {
            return Self.fail(invocation, NotificationAgentError.invalidArgument("\(key) is at most \(AgentLimits.displayNameBytes) bytes"))
        }
        app.work.enqueue {
            await Self.runPush(invocation) {
                try app.requireBound(sender)
                switch call {
                case .register:
                    let registration = try await push.register(
                        appID: appID, distributor: options["distributor"]?.stringValue, description: options["description"]?.stringValue)
                    return AgentPush1Spec.RegisterReply(registration: [
                        "endpoint": .string(registration.endpoint.absoluteString), "p256dh": .string(registration.p256dh),
                        "auth": .string(registration.auth), "distributor": .string(registration.distributor),
                    ]).values
                case .unregister:
                    try push.unregister(appID: appID)
                    return []
                }
            }
        }
    }

    /// Runs `work` and answers `invocation`: a refused registration as
    /// ``UserNotifications/AgentPushInterface/registrationErrorName``, so the app gets it typed.
    static func runPush(_ invocation: DBusMethodInvocation, _ work: @Sendable () async throws -> [DBusValue]) async {
        do {
            invocation.reply(try await work())
        } catch let error as RemoteNotificationRegistrationError {
            invocation.fail(name: AgentPushInterface.registrationErrorName, message: AgentPushInterface.encode(error))
        } catch {
            fail(invocation, error)
        }
    }
}
