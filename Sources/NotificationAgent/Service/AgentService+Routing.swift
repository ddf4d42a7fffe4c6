import DBus
import Foundation
import UserNotifications

extension AgentService {
    /// Takes a call on the connection's executor: checks its shape and app id at once, then
    /// hands it to the app's queue, so each app's calls are taken in the order they came.
    func route(_ invocation: DBusMethodInvocation) {
        touched()
        let message = invocation.message
        let sender = message.sender ?? ""
        let member = message.member ?? ""
        guard let signature = Self.signatures[member] else {
            return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "\(AgentInterface.name) has no method \(member)")
        }
        guard message.bodySignature == signature else {
            return Self.fail(invocation, NotificationAgentError.invalidArgument("\(member) takes (\(signature)), not (\(message.bodySignature))"))
        }
        switch member {
        case "Version": return invocation.reply([.uint32(AgentInterface.version)])
        case "Status": return answer(invocation) { [self] in [.string(try await statusJSON())] }
        default: break
        }
        guard case .string(let appID) = message.body[0] else { return }
        do throws(InvalidApplicationIdentifierError) {
            try ApplicationIdentity.validate(id: appID)
        } catch {
            return Self.fail(invocation, NotificationAgentError.invalidArgument(String(describing: error)))
        }
        if member == "Connect" {
            let options = message.body[1].variantDictionaryValue ?? [:]
            let identity = ApplicationIdentity(
                id: appID, displayName: options["name"]?.stringValue ?? appID, icon: options["icon"]?.stringValue ?? "")
            let app = app(appID, identity: identity)
            return app.work.enqueue { [self] in
                await Self.run(invocation) {
                    try await app.bind(sender: sender, on: connection, identifying: identifying)
                    // A Connect that names neither (notify pending --app, asking for an app
                    // that is not running) keeps the name and icon the app gave.
                    if options["name"] != nil || options["icon"] != nil { app.host.remember(identity) }
                    return [.uint32(AgentInterface.version)]
                }
            }
        }
        guard let app = apps.withLock({ $0[appID] }) else {
            return Self.fail(invocation, NotificationAgentError.unknownApp("\(appID): call Connect first"))
        }
        let body = Array(message.body.dropFirst())
        app.work.enqueue {
            await Self.run(invocation) {
                try app.requireBound(sender)
                guard Self.growingCalls.contains(member) else {
                    return try await Self.perform(member, body, on: app) { invocation.reply() }
                }
                return try await Self.offTheIOThread { try await Self.perform(member, body, on: app) }
            }
        }
    }

    /// The calls whose work grows with the call or with the app's lists (up to a whole batch
    /// of requests): they run on the global executor, so that one app's batch keeps neither
    /// the D-Bus I/O thread, where an app's calls run (``SerialWork``), nor the other apps
    /// waiting.
    static let growingCalls: Set<String> = ["AddRequests", "PendingRequests", "DeliveredNotifications"]

    /// Runs `work` in a task of its own on the global executor, with no executor preference
    /// (under one, even the global executor's, each return from the engine's actor would be a
    /// job of its own), and waits for it: the app's later calls still wait their turn.
    static func offTheIOThread<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await Task.detached(operation: work).value
    }

    /// The input signature of each method.
    static let signatures: [String: String] = [
        "Version": "", "Status": "", "Connect": "sa{sv}", "Add": "ss", "AddPresented": "ssu", "AddRequests": "sas", "PendingRequests": "s",
        "RemovePendingRequests": "sasb", "DeliveredNotifications": "s", "RemoveDeliveredNotifications": "sasb",
        "SetCategories": "ss", "Categories": "s", "RequestAuthorization": "su", "Authorization": "s",
        "SetBadgeCount": "si", "TakeResponses": "s", "AcknowledgeResponses": "sas",
    ]

    /// Performs an app's call once its sender is known to be bound; `body` is without the app id.
    ///
    /// `Add` and `AddPresented` call `accepted` as the request is accepted, before its `Notify`
    /// is written: the caller answers the app there (its later, same answer is ignored).
    static func perform(
        _ member: String, _ body: [DBusValue], on app: AgentApp, accepted: (@Sendable () -> Void)? = nil
    ) async throws -> [DBusValue] {
        let engine = app.engine
        switch member {
        case "Add", "AddPresented":
            let request = try AgentPayload.request(from: body[0].stringValue ?? "")
            let options = member == "Add" ? nil : UNNotificationPresentationOptions(rawValue: UInt(body[1].uint32Value ?? 0))
            guard request.content.attachments.isEmpty else {
                // Its files are copied into the store: off the D-Bus I/O thread, as a growing call.
                try await offTheIOThread { try await app.add(request, presentation: options, accepted: accepted) }
                return []
            }
            try await app.add(request, presentation: options, accepted: accepted)
            return []
        case "AddRequests": return [try await addRequests(body[0].stringArrayValue ?? [], to: app)]
        case "PendingRequests": return [.string(try AgentPayload.encode(await engine.pendingRequests()))]
        case "RemovePendingRequests":
            engine.removePendingRequests(withIdentifiers: body[1].boolValue == true ? nil : body[0].stringArrayValue ?? [])
            return []
        case "DeliveredNotifications": return [.string(try AgentPayload.encode(await engine.deliveredNotifications()))]
        case "RemoveDeliveredNotifications":
            engine.removeDeliveredNotifications(withIdentifiers: body[1].boolValue == true ? nil : body[0].stringArrayValue ?? [])
            return []
        case "SetCategories":
            engine.setCategories(try AgentPayload.categories(from: body[0].stringValue ?? ""))
            return []
        case "Categories": return [.string(try AgentPayload.encode(await engine.categories()))]
        case "RequestAuthorization":
            let options = UNAuthorizationOptions(rawValue: UInt(body[0].uint32Value ?? 0))
            return [.boolean(await engine.requestAuthorization(options: options))]
        case "Authorization":
            let answer = await engine.authorization()
            return [
                .uint32(UInt32(clamping: answer.status.rawValue)), .uint32(UInt32(clamping: answer.options.rawValue)),
                .stringArray(answer.capabilities ?? []), .boolean(answer.capabilities != nil),
            ]
        case "SetBadgeCount":
            try await engine.setBadgeCount(Int(body[0].int32Value ?? 0))
            return []
        case "TakeResponses":
            let pairs = app.host.takeResponses().map { DBusValue.structure([.string($0.id), .string($0.json)]) }
            return [.array(element: .structure([.string, .string]), pairs)]
        default:
            app.host.acknowledge(body[0].stringArrayValue ?? [])
            return []
        }
    }

    /// `AddRequests`: adds each request as `Add` does, in order, and answers a (D-Bus error
    /// name, message) pair for each, both empty for a request taken; a refused request does not
    /// stop the ones after it. A list over ``UserNotifications/AgentInterface/maximumBatchRequests``
    /// requests or ``UserNotifications/AgentInterface/maximumBatchBytes`` bytes is refused whole.
    static func addRequests(_ texts: [String], to app: AgentApp) async throws -> DBusValue {
        guard texts.count <= AgentInterface.maximumBatchRequests else {
            throw NotificationAgentError.invalidArgument(
                "AddRequests takes at most \(AgentInterface.maximumBatchRequests) requests, not \(texts.count)")
        }
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        guard bytes <= AgentInterface.maximumBatchBytes else {
            throw NotificationAgentError.invalidArgument("AddRequests takes at most \(AgentInterface.maximumBatchBytes) bytes, not \(bytes)")
        }
        var results: [DBusValue] = []
        results.reserveCapacity(texts.count)
        for text in texts {
            do {
                try await app.add(try AgentPayload.request(from: text))
                results.append(.structure([.string(""), .string("")]))
            } catch {
                let (name, message) = AgentErrorName.encode(error)
                results.append(.structure([.string(name), .string(message)]))
            }
        }
        return .array(element: .structure([.string, .string]), results)
    }

    /// The JSON of `Status`.
    package func statusJSON() async throws -> String {
        var entries: [AgentStatus.App] = []
        for app in apps.withLock({ $0.values.sorted { $0.appID < $1.appID } }) {
            entries.append(await app.status())
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(AgentStatus(apps: entries)), as: UTF8.self)
    }

    /// Answers in a task of its own (for calls outside any app's queue).
    func answer(_ invocation: DBusMethodInvocation, _ work: @escaping @Sendable () async throws -> [DBusValue]) {
        Task { await Self.run(invocation, work) }
    }

    /// Runs `work` and answers with its values, or with the error's D-Bus name.
    static func run(_ invocation: DBusMethodInvocation, _ work: @Sendable () async throws -> [DBusValue]) async {
        do {
            invocation.reply(try await work())
        } catch {
            fail(invocation, error)
        }
    }

    static func fail(_ invocation: DBusMethodInvocation, _ error: any Error) {
        let (name, text) = AgentErrorName.encode(error)
        invocation.fail(name: name, message: text)
    }
}
