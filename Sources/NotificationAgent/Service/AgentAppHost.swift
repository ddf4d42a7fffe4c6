import DBus
import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// The host of one app's engine in the agent: it asks the app's connected center how to
/// present a notification and to run its service extension on a mutable push, and keeps each response in the app's agent state until a center
/// acknowledges it (`AcknowledgeResponses`): it goes to the connected center as the `Response`
/// signal at once, or, with no center connected, the launcher is asked to start the app (one launch
/// at a time: ``beginLaunch()``). A
/// center that exits before it took a response gets it from `TakeResponses` at its next start.
final class AgentAppHost: HostedEngineHost {
    let appID: String
    private let connection: DBusConnection
    private let launcher: any AppLaunching
    private let recordFile: StateFile<AgentAppRecord>
    private let clock: any NotificationClock
    private let state: Locked<(record: AgentAppRecord, center: String?)>
    /// When the launch under way started, or `nil` when none is (``beginLaunch()``).
    private let launchStarted = Locked<Date?>(nil)
    /// Tells the agent that work happened (its idle period counts again).
    let touch: @Sendable () -> Void

    init(
        appID: String, record: AgentAppRecord, recordFile: StateFile<AgentAppRecord>, connection: DBusConnection,
        launcher: any AppLaunching, clock: any NotificationClock, touch: @escaping @Sendable () -> Void = {}
    ) {
        self.touch = touch
        self.appID = appID
        self.connection = connection
        self.launcher = launcher
        self.recordFile = recordFile
        self.clock = clock
        state = Locked((record, nil))
    }

    /// The unique name of the app's connected center, if one is.
    var center: String? {
        get { state.withLock { $0.center } }
        set {
            state.withLock { $0.center = newValue }
            // The launched app has connected: the launch is over.
            if newValue != nil { launchStarted.withLock { $0 = nil } }
        }
    }

    /// Records the identity the app posts with at the agent's next start.
    func remember(_ identity: ApplicationIdentity) {
        update { $0.displayName = identity.displayName; $0.icon = identity.icon }
    }

    // MARK: - Presentation

    func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
        touch()
        let fallback = UNUserNotificationCenter.defaultPresentationOptions
        guard let center else { return fallback }
        do {
            let reply = try await call(
                center, "WillPresent", try AgentPayload.encode(notification), timeout: UNUserNotificationCenter.presentationDeadline)
            guard let raw = try reply.arguments("u").first?.uint32Value else { return fallback }
            return UNNotificationPresentationOptions(rawValue: UInt(raw))
        } catch {
            SubsystemLog.agent.logger.info(
                "the app did not answer WillPresent; the default options apply",
                metadata: ["app": "\(appID)", "identifier": "\(notification.request.identifier)", "error": SubsystemLog.describe(error)])
            return fallback
        }
    }

    // MARK: - Service extension

    /// The pushed `request` (`mutable-content`) as it is shown: with the content the app's
    /// connected center gives back from its service extension (`ServiceExtension`, waited for
    /// at most ``UserNotifications/AgentInterface/serviceExtensionDeadline``), or as sent, with
    /// the reason logged, when no center is connected (the agent does not start an app to run
    /// its extension), the call fails or times out, or the content does not decode or is over
    /// the argument limit.
    func serviceExtensionRequest(for request: UNNotificationRequest) async -> UNNotificationRequest {
        touch()
        defer { touch() }
        guard let center else {
            SubsystemLog.agent.logger.info(
                "the app is not running to run its service extension; the push is shown as sent",
                metadata: ["app": "\(appID)", "identifier": "\(request.identifier)"])
            return request
        }
        do {
            let reply = try await call(
                center, "ServiceExtension", try AgentPayload.encode(request), timeout: AgentInterface.serviceExtensionDeadline)
            guard let json = try reply.arguments("s").first?.stringValue else {
                throw NotificationAgentError.invalidArgument("ServiceExtension answered no content")
            }
            return UNNotificationRequest(identifier: request.identifier, content: try AgentPayload.content(from: json), trigger: request.trigger)
        } catch {
            SubsystemLog.agent.logger.warning(
                "the app's service extension gave no content; the push is shown as sent",
                metadata: ["app": "\(appID)", "identifier": "\(request.identifier)", "error": SubsystemLog.describe(error)])
            return request
        }
    }

    /// Calls `member` of `AgentClient1` with one JSON argument on the app's center.
    private func call(_ center: String, _ member: String, _ json: String, timeout: Duration) async throws -> DBusMessage {
        let call = try DBusMessage.methodCall(
            destination: center, path: AgentInterface.clientPath, interface: AgentInterface.clientName, member: member, body: [.string(json)])
        return try await connection.call(call, timeout: timeout)
    }

    // MARK: - Responses

    func receive(_ response: UNNotificationResponse) {
        touch()
        let identifier = response.notification.request.identifier
        let json: String
        do {
            json = try AgentPayload.encode(response)
        } catch {
            SubsystemLog.agent.logger.warning(
                "a response could not be encoded; dropped", metadata: ["app": "\(appID)", "identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
            return
        }
        let queued = QueuedResponse(id: UUID().uuidString, json: json, queuedAt: clock.now)
        enqueue(queued)
        if let center, send(queued, to: center) { return }
        guard let started = beginLaunch() else {
            SubsystemLog.agent.logger.info("the app is being launched; the response waits for its center", metadata: ["app": "\(appID)"])
            return
        }
        let launcher = self.launcher
        let appID = self.appID
        let token = response.activationToken
        let launchStarted = self.launchStarted
        Task {
            do {
                try await launcher.launch(appID: appID, responseID: queued.id, activationToken: token)
            } catch {
                launchStarted.withLock { if $0 == started { $0 = nil } }
                SubsystemLog.agent.logger.warning("the app could not be launched", metadata: ["app": "\(appID)", "error": SubsystemLog.describe(error)])
            }
        }
    }

    /// How long a launch counts as under way while the app's center does not connect, in
    /// seconds of the agent's clock: after it, the next response launches the app again.
    static let launchWait: TimeInterval = 30

    /// Starts a launch unless one is under way, and returns its start, or `nil` when one is.
    ///
    /// One launch at a time: a launch is under way from its start until the app's center
    /// connects, the launch fails, or ``launchWait`` has passed (a clock set back ends it too).
    /// Responses that come meanwhile wait in the app's queue for the app being launched: a
    /// second launch would start a second copy, whose center the agent refuses (the first copy
    /// is connected) and which keeps its notifications in its own process.
    private func beginLaunch() -> Date? {
        let now = clock.now
        return launchStarted.withLock { started -> Date? in
            if let begun = started, now >= begun, now.timeIntervalSince(begun) < Self.launchWait { return nil }
            started = now
            return now
        }
    }

    /// Sends the `Response` signal to the app's center alone; `false` when it cannot be sent.
    private func send(_ response: QueuedResponse, to center: String) -> Bool {
        do {
            try connection.send(try DBusMessage.signal(
                path: AgentInterface.path, interface: AgentInterface.name, member: AgentInterface.responseSignal,
                body: [.string(appID), .string(response.id), .string(response.json)], destination: center))
            return true
        } catch {
            return false
        }
    }

    /// Queues a response, dropping the oldest past ``AgentLimits/queuedResponses``.
    private func enqueue(_ response: QueuedResponse) {
        update { record in
            record.responses.append(response)
            let excess = record.responses.count - AgentLimits.queuedResponses
            if excess > 0 {
                record.responses.removeFirst(excess)
                SubsystemLog.agent.logger.warning("the app's response queue is full; the oldest response was dropped", metadata: ["app": "\(appID)"])
            }
        }
    }

    /// The queued responses still within ``AgentLimits/responseLifetime``, oldest first; the
    /// expired ones are dropped.
    func takeResponses() -> [QueuedResponse] {
        let oldest = clock.now.addingTimeInterval(-TimeInterval(AgentLimits.responseLifetime.components.seconds))
        let expired = state.withLock { $0.record.responses.contains { $0.queuedAt < oldest } }
        if expired { update { $0.responses.removeAll { $0.queuedAt < oldest } } }
        return state.withLock { $0.record.responses }
    }

    /// How many responses wait.
    var queuedCount: Int { state.withLock { $0.record.responses.count } }

    /// Forgets the responses the app's delegate has taken.
    func acknowledge(_ ids: [String]) {
        let taken = Set(ids)
        update { $0.responses.removeAll { taken.contains($0.id) } }
    }

    /// Changes the record and saves it, under the lock so that saves land in the order of the
    /// changes (a failure is logged: the change stays in memory).
    private func update(_ change: (inout AgentAppRecord) -> Void) {
        state.withLock { state in
            change(&state.record)
            do {
                try recordFile.save(state.record)
            } catch {
                SubsystemLog.agent.logger.error("the app's agent state was not saved", metadata: ["app": "\(appID)", "error": SubsystemLog.describe(error)])
            }
        }
    }
}
