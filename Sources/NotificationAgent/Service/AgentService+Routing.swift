import DBus
import Foundation
import UserNotifications

extension AgentService {
    /// Takes a call on the connection's executor: checks its shape and app id at once, then
    /// hands it to the app's queue, so each app's calls are taken in the order they came.
    ///
    /// `Connect` for an app the agent does not hold checks the caller first
    /// (``CallerIdentifying``) and makes the app only once it is allowed, within
    /// ``AgentLimits/apps``: a refused caller leaves nothing behind.
    func route(_ invocation: DBusMethodInvocation) {
        touched()
        let message = invocation.message
        let sender = message.sender ?? ""
        let call: Agent1Spec.Call
        do throws(DBusCallRefusal) {
            call = try Agent1Spec.Call(message)
        } catch {
            return Self.fail(invocation, error)
        }
        let method = call.method
        let appID: String
        switch call {
        case .version: return invocation.reply(Agent1Spec.VersionReply(version: AgentInterface.version).values)
        case .status: return answer(invocation) { [self] in Agent1Spec.StatusReply(statusJSON: try await statusJSON(for: sender)).values }
        default: appID = call.appID
        }
        do throws(InvalidApplicationIdentifierError) {
            try ApplicationIdentity.validate(id: appID)
        } catch {
            return Self.fail(invocation, NotificationAgentError.invalidArgument(String(describing: error)))
        }
        if case .connect(let arguments) = call { return connect(invocation, arguments, sender: sender) }
        guard let app = apps.withLock({ $0[appID] }) else {
            return Self.fail(invocation, NotificationAgentError.unknownApp("\(appID): call Connect first"))
        }
        app.work.enqueue { [self] in
            await Self.run(invocation) {
                try app.requireBound(sender)
                guard Self.growingCalls.contains(method) else {
                    return try await perform(call, on: app) { invocation.reply() }
                }
                return try await Self.offTheIOThread { try await self.perform(call, on: app) }
            }
        }
    }

    /// `Connect`: binds the sender to the app, made first (once the caller is allowed) when the
    /// agent holds none; an app the agent let go meanwhile is made again.
    private func connect(_ invocation: DBusMethodInvocation, _ arguments: Agent1Spec.ConnectArguments, sender: String) {
        let appID = arguments.appID
        let options = arguments.identity
        let identity: ApplicationIdentity
        let extensionCategories: Set<String>
        do throws(NotificationAgentError) {
            identity = try AgentConnectOptions.identity(appID: appID, name: options["name"]?.stringValue, icon: options["icon"]?.stringValue)
            extensionCategories = try AgentConnectOptions.contentExtensionCategories(options[AgentInterface.contentExtensionCategoriesOption])
        } catch {
            return Self.fail(invocation, error)
        }
        if let app = apps.withLock({ $0[appID] }) {
            return app.work.enqueue { [self] in
                if app.isReleased.withLock({ $0 }) { return connect(invocation, arguments, sender: sender) }
                await Self.run(invocation) {
                    try await app.bind(sender: sender, identity: identity, on: connection, identifying: identifying)
                    app.host.contentExtensionCategories = extensionCategories
                    // A Connect that names neither (notify pending --app, asking for an app
                    // that is not running) keeps the name and icon the app gave.
                    if options["name"] != nil || options["icon"] != nil { app.host.remember(identity) }
                    return Agent1Spec.ConnectReply(version: AgentInterface.version).values
                }
            }
        }
        answer(invocation) { [self] in
            // Nothing is made for a caller before it is allowed to act for the id.
            let confinement = try await identifying.authorize(
                sender: sender, senderPID: nil, appID: appID, boundSender: nil, boundPID: nil, on: connection)
            try AgentConnectOptions.check(icon: identity.icon, confinement: confinement)
            let app = try admit(appID, identity: identity)
            return try await withCheckedThrowingContinuation { continuation in
                app.work.enqueue { [self] in
                    do {
                        try await app.bind(sender: sender, identity: identity, on: connection, identifying: identifying)
                        app.host.contentExtensionCategories = extensionCategories
                        app.host.remember(identity)
                        // The record that restores the app at the agent's next start is on
                        // disk before Connect is answered; written off this thread.
                        await app.host.settleRecord()
                        continuation.resume(returning: Agent1Spec.ConnectReply(version: AgentInterface.version).values)
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// The calls whose work grows with the call or with the app's lists (up to a whole batch
    /// of requests): they run on the global executor, so that one app's batch keeps neither
    /// the D-Bus I/O thread, where an app's calls run (``SerialWork``), nor the other apps
    /// waiting.
    static let growingCalls: Set<Agent1Spec.Method> = [.addRequests, .pendingRequests, .deliveredNotifications, .addFiles]

    /// Runs `work` in a task of its own on the global executor, with no executor preference
    /// (under one, even the global executor's, each return from the engine's actor would be a
    /// job of its own), and waits for it: the app's later calls still wait their turn.
    static func offTheIOThread<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await Task.detached(operation: work).value
    }

    /// Performs an app's call once its sender is known to be bound. `Version`, `Status` and
    /// `Connect` are answered by ``route(_:)`` itself.
    ///
    /// `Add` and `AddPresented` call `accepted` as the request is accepted, before its `Notify`
    /// is written: the caller answers the app there (its later, same answer is ignored).
    func perform(_ call: Agent1Spec.Call, on app: AgentApp, accepted: (@Sendable () -> Void)? = nil) async throws -> [DBusValue] {
        let engine = app.engine
        switch call {
        case .add(let arguments):
            try await add(arguments.request, presentation: nil, to: app, accepted: accepted)
            return []
        case .addPresented(let arguments):
            let options = UNNotificationPresentationOptions(rawValue: UInt(arguments.options))
            try await add(arguments.request, presentation: options, to: app, accepted: accepted)
            return []
        case .addFiles(let arguments):
            let (request, bytes) = try Self.request(from: arguments.request)
            try await addWithFiles(request, bytes: bytes, sources: arguments.files, to: app, presentation: nil, accepted: nil)
            return []
        case .addRequests(let arguments):
            return Agent1Spec.AddRequestsReply(results: try await addRequests(arguments.requests, to: app)).values
        case .pendingRequests:
            return Agent1Spec.PendingRequestsReply(requests: try AgentPayload.encode(await engine.pendingRequests())).values
        case .removePendingRequests(let arguments):
            try AgentPayload.checkIdentifiers(arguments.identifiers, named: "identifiers")
            engine.removePendingRequests(withIdentifiers: arguments.all ? nil : arguments.identifiers)
            return []
        case .deliveredNotifications:
            return Agent1Spec.DeliveredNotificationsReply(notifications: try AgentPayload.encode(await engine.deliveredNotifications())).values
        case .removeDeliveredNotifications(let arguments):
            try AgentPayload.checkIdentifiers(arguments.identifiers, named: "identifiers")
            engine.removeDeliveredNotifications(withIdentifiers: arguments.all ? nil : arguments.identifiers)
            return []
        case .setCategories(let arguments):
            try await app.setCategories(arguments.categories, othersBytes: othersBytes(app))
            return []
        case .categories:
            return Agent1Spec.CategoriesReply(categories: try AgentPayload.encode(await engine.categories())).values
        case .requestAuthorization(let arguments):
            let options = UNAuthorizationOptions(rawValue: UInt(arguments.options))
            return Agent1Spec.RequestAuthorizationReply(granted: await engine.requestAuthorization(options: options)).values
        case .authorization:
            let answer = await engine.authorization()
            return Agent1Spec.AuthorizationReply(
                status: UInt32(clamping: answer.status.rawValue), options: UInt32(clamping: answer.options.rawValue),
                capabilities: answer.capabilities.map { $0.map(\.rawValue).sorted() } ?? [], serverReachable: answer.capabilities != nil
            ).values
        case .setBadgeCount(let arguments):
            try await engine.setBadgeCount(Int(arguments.count))
            return []
        case .takeResponses:
            let pairs = app.host.takeResponses().map { DBusValue.structure([.string($0.id), $0.response.record.dbusValue]) }
            let pairType = DBusType.structure([.string, AgentPayload.Record.dbusType])
            return Agent1Spec.TakeResponsesReply(responses: .array(element: pairType, pairs)).values
        case .acknowledgeResponses(let arguments):
            try AgentPayload.checkIdentifiers(arguments.responseIDs, named: "response_ids")
            app.host.acknowledge(arguments.responseIDs)
            return []
        case .version, .status, .connect:
            throw NotificationAgentError.invalidArgument("\(call.method.rawValue) is answered before an app's queue")
        }
    }

    /// `Add` and `AddPresented` (`presentation` given): a request with attachments has its
    /// files copied into the store off the D-Bus I/O thread, as a growing call.
    private func add(
        _ record: AgentPayload.Record, presentation: UNNotificationPresentationOptions?, to app: AgentApp,
        accepted: (@Sendable () -> Void)?
    ) async throws {
        let (request, bytes) = try Self.request(from: record)
        guard request.content.attachments.isEmpty else {
            return try await Self.offTheIOThread { [self] in
                try await addWithFiles(request, bytes: bytes, sources: nil, to: app, presentation: presentation, accepted: accepted)
            }
        }
        try await app.add(request, travelBytes: bytes, othersBytes: othersBytes(app), presentation: presentation, accepted: accepted)
    }

    /// `AddRequests`: adds each request as `Add` does, in order, and answers a (D-Bus error
    /// name, message) pair for each, both empty for a request taken; a refused request does not
    /// stop the ones after it. A list over ``UserNotifications/AgentInterface/maximumBatchRequests``
    /// requests or ``UserNotifications/AgentInterface/maximumBatchBytes`` bytes is refused whole.
    func addRequests(_ records: [AgentPayload.Record], to app: AgentApp) async throws -> DBusValue {
        guard records.count <= AgentInterface.maximumBatchRequests else {
            throw NotificationAgentError.invalidArgument(
                "AddRequests takes at most \(AgentInterface.maximumBatchRequests) requests, not \(records.count)")
        }
        let sizes = records.map(AgentPayload.size(of:))
        let bytes = sizes.reduce(0, +)
        guard bytes <= AgentInterface.maximumBatchBytes else {
            throw NotificationAgentError.invalidArgument("AddRequests takes at most \(AgentInterface.maximumBatchBytes) bytes, not \(bytes)")
        }
        var results: [DBusValue] = []
        results.reserveCapacity(records.count)
        let others = othersBytes(app)
        for (record, size) in zip(records, sizes) {
            do {
                let request = try Self.request(from: record, bytes: size)
                if request.content.attachments.isEmpty {
                    try await app.add(request, travelBytes: size, othersBytes: others)
                } else {
                    try await addWithFiles(request, bytes: size, sources: nil, to: app, presentation: nil, accepted: nil)
                }
                results.append(.structure([.string(""), .string("")]))
            } catch {
                let (name, message) = AgentErrorName.encode(error)
                results.append(.structure([.string(name), .string(message)]))
            }
        }
        return .array(element: .structure([.string, .string]), results)
    }

    /// The request a call's record holds, and its size (``UserNotifications/AgentPayload/size(of:)``),
    /// within ``AgentLimits/requestBytes``.
    static func request(from record: AgentPayload.Record) throws -> (UNNotificationRequest, Int) {
        let bytes = AgentPayload.size(of: record)
        return (try request(from: record, bytes: bytes), bytes)
    }

    /// The request in `record`, of `bytes` the caller measured, within ``AgentLimits/requestBytes``.
    static func request(from record: AgentPayload.Record, bytes: Int) throws -> UNNotificationRequest {
        try checkRequestBytes(bytes)
        return try AgentPayload.request(from: record, bytes: bytes)
    }

    /// Refuses a request whose record is over ``AgentLimits/requestBytes`` bytes.
    static func checkRequestBytes(_ bytes: Int) throws(NotificationAgentError) {
        guard bytes <= AgentLimits.requestBytes else {
            throw .invalidArgument("a request is at most \(AgentLimits.requestBytes) bytes, not \(bytes)")
        }
    }

    /// What the agent's apps other than `app` hold, in bytes, asked at the time of the check.
    func othersBytes(_ app: AgentApp) -> @Sendable () -> Int {
        { [weak self] in
            guard let self else { return 0 }
            return apps.withLock { apps in apps.values.reduce(0) { $1 === app ? $0 : $0 + $1.bytes.withLock { $0.estimate } } }
        }
    }

    /// The JSON of `Status` for `sender`: every app for a process of the user's own on the
    /// host, only the apps bound to `sender` for a sandboxed one.
    package func statusJSON(for sender: String) async throws -> String {
        let confinement = try await identifying.confinement(of: sender, on: connection)
        return try await statusJSON { confinement == .host || $0.host.center == sender }
    }

    /// The JSON of `Status` with every app the agent holds.
    package func statusJSON() async throws -> String {
        try await statusJSON { _ in true }
    }

    private func statusJSON(including included: (AgentApp) -> Bool) async throws -> String {
        var entries: [AgentStatus.App] = []
        for app in apps.withLock({ $0.values.sorted { $0.appID < $1.appID } }) where included(app) {
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

extension Agent1Spec.Call {
    /// The app id every call but `Version` and `Status` takes first (empty for those two).
    var appID: String {
        switch self {
        case .version, .status: ""
        case .connect(let arguments): arguments.appID
        case .add(let arguments): arguments.appID
        case .addPresented(let arguments): arguments.appID
        case .addFiles(let arguments): arguments.appID
        case .addRequests(let arguments): arguments.appID
        case .pendingRequests(let arguments): arguments.appID
        case .removePendingRequests(let arguments): arguments.appID
        case .deliveredNotifications(let arguments): arguments.appID
        case .removeDeliveredNotifications(let arguments): arguments.appID
        case .setCategories(let arguments): arguments.appID
        case .categories(let arguments): arguments.appID
        case .requestAuthorization(let arguments): arguments.appID
        case .authorization(let arguments): arguments.appID
        case .setBadgeCount(let arguments): arguments.appID
        case .takeResponses(let arguments): arguments.appID
        case .acknowledgeResponses(let arguments): arguments.appID
        }
    }
}
