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
final class AgentAppHost: EngineHost {
    let appID: String
    private let connection: DBusConnection
    private let launcher: any AppLaunching
    private let recordFile: StateFile<AgentAppRecord>
    private let clock: any NotificationClock
    private let state: Locked<State>
    /// Held while a write of the record runs, so that writes land in order, each with the
    /// record as it is when it starts.
    private let writing = Locked<Void>(())

    /// The record, the connected center and when the record is written next.
    private struct State {
        var record: AgentAppRecord
        var center: String?
        /// The categories the connected center's content extensions handle, as its last
        /// `Connect` named them; none while no center is connected.
        var contentExtensionCategories: Set<String> = []
        var saveTiming: SaveCoalescing
        /// Set once the app is let go: a write still waiting is dropped (its folder may be gone).
        var closed = false
        /// How many changes the record has had, and how many of them the file holds.
        var changes: UInt64 = 0
        var written: UInt64 = 0
        /// Whether the file exists: the agent restores an app at start by its record file.
        var onDisk: Bool
    }
    /// When the launch under way started, or `nil` when none is (``beginLaunch()``).
    private let launchStarted = Locked<Date?>(nil)
    /// Tells the agent that work happened (its idle period counts again).
    let touch: @Sendable () -> Void
    /// The presentation questions to the connected center, asked in order.
    private let questions = PresentationQuestions()

    init(
        appID: String, record: AgentAppRecord, recordFile: StateFile<AgentAppRecord>, connection: DBusConnection,
        launcher: any AppLaunching, clock: any NotificationClock, saves: SaveLoad = SaveLoad(), touch: @escaping @Sendable () -> Void = {}
    ) {
        self.touch = touch
        self.appID = appID
        self.connection = connection
        self.launcher = launcher
        self.recordFile = recordFile
        self.clock = clock
        state = Locked(State(
            record: record, center: nil, saveTiming: SaveCoalescing(load: saves),
            onDisk: FileManager.default.fileExists(atPath: recordFile.url.path)))
    }

    /// The unique name of the app's connected center, if one is.
    var center: String? {
        get { state.withLock { $0.center } }
        set {
            state.withLock { state in
                if newValue != state.center { state.contentExtensionCategories = [] }
                state.center = newValue
            }
            // The launched app has connected: the launch is over.
            if newValue != nil { launchStarted.withLock { $0 = nil } }
        }
    }

    /// Records the identity the app posts with at the agent's next start.
    func remember(_ identity: ApplicationIdentity) {
        update { $0.displayName = identity.displayName; $0.icon = identity.icon }
    }

    // MARK: - Presentation

    /// The connected center is asked each time: the agent cannot know whether it has a delegate.
    package var presentationOptionsWithoutAsking: UNNotificationPresentationOptions? { nil }

    /// Asks the connected center (``centerPresentationOptions(for:)``) once the questions before
    /// are answered, so the app's notifications are posted in the order it added them.
    package func askPresentationOptions(
        for notification: UNNotification, then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        questions.ask({ [weak self] in
            await self?.centerPresentationOptions(for: notification) ?? UNUserNotificationCenter.defaultPresentationOptions
        }, then: then)
    }

    /// The connected center's answer to `WillPresent` (bounded by the presentation deadline), or
    /// the default options without a center or an answer.
    func centerPresentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
        touch()
        let fallback = UNUserNotificationCenter.defaultPresentationOptions
        guard let center else { return fallback }
        do {
            let reply = try await call(
                center, .willPresent(.init(notification: try AgentPayload.encode(notification))),
                timeout: UNUserNotificationCenter.presentationDeadline)
            return UNNotificationPresentationOptions(rawValue: UInt(try AgentClient1Spec.WillPresentReply(reply).options))
        } catch {
            SubsystemLog.agent.logger.info(
                "the app did not answer WillPresent; the default options apply",
                metadata: ["app": "\(appID)", "identifier": "\(notification.request.identifier)", "error": SubsystemLog.describe(error)])
            return fallback
        }
    }

    // MARK: - Content extensions

    /// The categories the connected center's content extensions handle (``center``'s last
    /// `Connect`); set after the center is bound, cleared when another center, or none, is.
    package var contentExtensionCategories: Set<String> {
        get { state.withLock { $0.contentExtensionCategories } }
        set { state.withLock { $0.contentExtensionCategories = newValue } }
    }

    /// Whether the connected center has a content extension for `category`: its notifications
    /// are then posted resident, and the extension is asked about their responses.
    package func hasContentExtension(forCategory category: String) -> Bool {
        state.withLock { $0.center != nil && $0.contentExtensionCategories.contains(category) }
    }

    /// Tells the connected center's content extension that `notification` is shown
    /// (`ContentExtensionShown`); a center that is gone or does not answer in time is logged.
    package func contentExtensionShown(_ notification: UNNotification) async {
        touch()
        guard let center else { return }
        do {
            _ = try await call(
                center, .contentExtensionShown(.init(notification: try AgentPayload.encode(notification))),
                timeout: AgentInterface.contentExtensionDeadline)
        } catch {
            SubsystemLog.agent.logger.info(
                "the app's content extension was not told its notification is shown",
                metadata: ["app": "\(appID)", "identifier": "\(notification.request.identifier)", "error": SubsystemLog.describe(error)])
        }
    }

    /// The connected center's content extension's answer for `response`
    /// (`ContentExtensionResponse`); `nil`, with the reason logged, when no center is
    /// connected, it does not answer in time, or answers no option: the response then goes on
    /// to the app as it would without an extension.
    package func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption? {
        touch()
        defer { touch() }
        guard let center else { return nil }
        do {
            let reply = try await call(
                center, .contentExtensionResponse(.init(response: try AgentPayload.encode(response))),
                timeout: AgentInterface.contentExtensionDeadline)
            let raw = try AgentClient1Spec.ContentExtensionResponseReply(reply).option
            guard let option = UNNotificationContentExtensionResponseOption(rawValue: UInt(raw)) else {
                throw NotificationAgentError.invalidArgument("ContentExtensionResponse answered no option")
            }
            return option
        } catch {
            SubsystemLog.agent.logger.info(
                "the app's content extension gave no answer; the response goes on to the app",
                metadata: ["app": "\(appID)", "identifier": "\(response.notification.request.identifier)", "error": SubsystemLog.describe(error)])
            return nil
        }
    }

    // MARK: - Service extension

    /// The content a push is shown with in the app's engine: its own. The agent runs the
    /// service extension before it adds a push (``serviceExtensionRequest(for:)``), through the
    /// app's connected center, where the extension lives.
    package func serviceExtensionContent(for request: UNNotificationRequest) async -> UNNotificationContent {
        request.content
    }

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
                center, .serviceExtension(.init(request: try AgentPayload.encode(request))), timeout: AgentInterface.serviceExtensionDeadline)
            let record = try AgentClient1Spec.ServiceExtensionReply(reply).content
            return UNNotificationRequest(identifier: request.identifier, content: try AgentPayload.content(from: record), trigger: request.trigger)
        } catch {
            SubsystemLog.agent.logger.warning(
                "the app's service extension gave no content; the push is shown as sent",
                metadata: ["app": "\(appID)", "identifier": "\(request.identifier)", "error": SubsystemLog.describe(error)])
            return request
        }
    }

    /// Makes `call` of `AgentClient1` on the app's center, and returns the reply's values,
    /// which the caller reads with the method's reply type.
    private func call(_ center: String, _ call: AgentClient1Spec.Call, timeout: Duration) async throws -> [DBusValue] {
        let message = try call.message(to: center, path: AgentInterface.clientPath)
        return try await connection.call(message, timeout: timeout).body
    }

    // MARK: - Responses

    package func receive(_ response: UNNotificationResponse) {
        touch()
        let identifier = response.notification.request.identifier
        let stored: AgentStoredResponse
        do {
            stored = try AgentStoredResponse(response)
        } catch {
            SubsystemLog.agent.logger.warning(
                "a response could not be encoded; dropped", metadata: ["app": "\(appID)", "identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
            return
        }
        let queued = QueuedResponse(id: UUID().uuidString, response: stored, queuedAt: clock.now)
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
            try connection.send(try Agent1Spec.ResponseSignal(appID: appID, responseID: response.id, response: response.response.record)
                .message(path: AgentInterface.path, destination: center))
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

    /// Changes the record and saves it: soon after a quiet spell, else once for the whole burst
    /// of changes (``UserNotifications/SaveCoalescing``, sharing the agent's
    /// ``UserNotifications/SaveLoad``), and never on the caller's thread, which may be the one
    /// that reads the bus for every app: each write (its lock, its `fsync`) runs on a thread of
    /// its own (``UserNotifications/StateFileThread``), so a slow disk or a lock held on the
    /// file stalls only this app's record. A click on every notification of a busy app queues
    /// and acknowledges a response each time; writing the file at every change, on the I/O
    /// thread, took most of the agent's time.
    ///
    /// The first write, which makes the file, starts at once: the agent restores an app at its
    /// next start by that file, and `Connect` waits for it (``settleRecord()``), so an agent
    /// killed just after an app's first calls still finds the requests it committed for the app.
    private func update(_ change: (inout AgentAppRecord) -> Void) {
        let (decision, makesFile) = state.withLock { state -> (SaveCoalescing.Decision?, Bool) in
            change(&state.record)
            state.changes += 1
            guard !state.closed else { return (nil, false) }
            let now = ContinuousClock.now
            if !state.onDisk {
                state.saveTiming.writeStarted(at: now)
                return (nil, true)
            }
            let decision = state.saveTiming.change(at: now)
            if decision == .writeNow { state.saveTiming.writeStarted(at: now) }
            return (decision, false)
        }
        if makesFile { return startWrite() }
        switch decision {
        case .writeNow:
            startWrite()
        case .writeAfter(let spacing):
            Task { [self] in
                try? await Task.sleep(for: spacing)
                guard state.withLock({ $0.saveTiming.takeWaitingWrite(at: ContinuousClock.now) }) else { return }
                await StateFileThread.run { self.writeRecord() }
            }
        case .waiting, nil:
            break
        }
    }

    /// Starts a write on a thread of its own, and goes on.
    private func startWrite() {
        Task { [self] in await StateFileThread.run { self.writeRecord() } }
    }

    /// Returns once the file holds every change made before the call (or a write failed, which
    /// is logged); the write runs on a thread of its own.
    func settleRecord() async {
        await StateFileThread.run { self.writeRecord() }
    }

    /// Writes the changes the file does not hold yet, now (the agent stops, or lets the app
    /// go), on a thread of its own; once `closing`, later changes are no longer written.
    func flushRecord(closing: Bool = false) async {
        await settleRecord()
        if closing { state.withLock { $0.closed = true } }
    }

    /// Writes the record as it is now, unless the file holds every change already or the app
    /// was let go. Writes are ordered under ``writing``, each with the record as it is when it
    /// starts. A failure is logged: the change stays in memory, and the next write takes it.
    private func writeRecord() {
        writing.withLock { _ in
            let started = ContinuousClock.now
            let next = state.withLock { state -> (AgentAppRecord, UInt64)? in
                state.closed || state.written == state.changes ? nil : (state.record, state.changes)
            }
            guard let (record, changes) = next else { return }
            do {
                try recordFile.save(record)
                state.withLock { state in
                    state.written = max(state.written, changes)
                    state.onDisk = true
                }
            } catch {
                SubsystemLog.agent.logger.error("the app's agent state was not saved", metadata: ["app": "\(appID)", "error": SubsystemLog.describe(error)])
            }
            let duration = ContinuousClock.now - started
            state.withLock { $0.saveTiming.writeEnded(after: duration) }
        }
    }
}
