public import DBus
import DesktopNotificationsSupport
public import FreedesktopNotifications

/// A scriptable notification server for tests, built on `NotificationServer` (module
/// `FreedesktopNotifications`): it records every call, plays a ``ServerPersonality``, and emits
/// any signal on demand.
///
/// It runs on its own bus connection, so a test can kill it (``stop()``) and start another
/// whose id counter starts again at 1, exactly as a real server restart does.
public final class FakeNotificationServer: NotificationServerHandler, Sendable {
    /// One call as the server saw it.
    public enum Call: Sendable, Hashable {
        /// A Notify call and the id it was given (nil while unanswered).
        case notify(NotifyRequest, sender: String, id: UInt32?)
        case closeNotification(id: UInt32, sender: String)
    }

    /// Faults to inject.
    public struct Script: Sendable {
        /// Never answer Notify (the caller's deadline must save it).
        public var hangOnNotify = false
        /// Send every signal twice.
        public var duplicateSignals = false
        /// When an action is invoked, send `NotificationClosed(id, 2)` before `ActionInvoked`.
        public var closeBeforeAction = false
        /// Emit `ActionInvoked(id, key)` before answering Notify (as python-dbusmock can).
        public var actionBeforeReply: String?
        /// Answer Notify only after this long (a slow server).
        public var replyDelay: Duration?
        /// Faults chosen for each Notify call on its own (they win over ``replyDelay`` and
        /// ``actionBeforeReply``), so that calls in flight together can be treated differently.
        public var faultsForNotify: (@Sendable (NotifyRequest) -> NotifyFaults)?
        /// Never send `NotificationClosed` on its own: not after an action or a reply, not after
        /// `CloseNotification` (which still forgets the notification), not right after replying.
        /// Servers that move notifications to a tray behave so. ``close(id:reason:)`` still closes.
        public var neverClose = false
        /// Send the signals of one action in reverse order: `NotificationClosed`, then
        /// `ActionInvoked`, then `ActivationToken`.
        public var reverseSignals = false
        /// Creates an empty script.
        public init() {}
    }

    /// Faults for one Notify call (see ``Script/faultsForNotify``).
    public struct NotifyFaults: Sendable {
        /// Answer only after this long.
        public var replyDelay: Duration?
        /// Emit `ActionInvoked(id, key)` before answering.
        public var actionBeforeReply: String?
        /// Crash right after answering: the connection closes, as a server process dying just
        /// after its reply left would.
        public var crashAfterReply: Bool
        /// Creates faults for one call; `nil` means none.
        public init(replyDelay: Duration? = nil, actionBeforeReply: String? = nil, crashAfterReply: Bool = false) {
            self.replyDelay = replyDelay
            self.actionBeforeReply = actionBeforeReply
            self.crashAfterReply = crashAfterReply
        }
    }

    private struct Live {
        var request: NotifyRequest
        var sender: String
        /// Which Notify put it there, so that an expiry timer of replaced content does nothing.
        var generation: Int
        /// Which Notify first showed it (a replacement keeps its place among its sender's).
        var firstGeneration: Int
        /// Its actions were removed because the poster left the bus.
        var actionsRemoved = false
    }

    private struct State {
        var nextID: UInt32 = 1
        var generations = 0
        var live: [UInt32: Live] = [:]
        var calls: [Call] = []
        /// Posters whose connection left the bus, when the personality cares.
        var departed: Set<String> = []
        var waiters: [(predicate: @Sendable ([Call]) -> Bool, continuation: CheckedContinuation<[Call], Never>)] = []
    }

    /// The personality being played.
    public let personality: ServerPersonality
    private let scriptBox: Locked<Script>
    private let state = Locked(State())
    private let serverBox = Locked<NotificationServer?>(nil)

    private init(personality: ServerPersonality, script: Script) {
        self.personality = personality
        self.scriptBox = Locked(script)
    }

    /// Connects to `bus`, takes `org.freedesktop.Notifications` (replacing an owner that
    /// allows it) and starts serving.
    public static func start(
        on bus: DBusBus, personality: ServerPersonality = .kde, script: Script = Script()
    ) async throws -> FakeNotificationServer {
        let fake = FakeNotificationServer(personality: personality, script: script)
        let connection = try await DBusConnection.connect(to: bus)
        if personality.posterDeparture != .keep { try await fake.watchDepartures(on: connection) }
        let server = try await NotificationServer.start(on: connection, handler: fake, replaceExisting: true)
        fake.serverBox.withLock { $0 = server }
        return fake
    }

    /// The server's unique bus name.
    public var uniqueName: String { server.connection.uniqueName }

    private var server: NotificationServer {
        serverBox.withLock { $0! }
    }

    /// The faults in force; change them at any time.
    public var script: Script {
        get { scriptBox.withLock { $0 } }
        set { scriptBox.withLock { $0 = newValue } }
    }

    /// Whether the server's connection is still open (not stopped, not crashed).
    public var isServing: Bool { server.connection.isConnected }

    /// Stops serving and closes the connection, as a crashing server would.
    ///
    /// The exported object goes too: the connection keeps it after closing, and it holds this
    /// server, which holds the connection, so a stopped server would never be freed.
    public func stop() async {
        let server = self.server
        await server.connection.close()
        await server.stop()
    }

    /// Follows posters leaving the bus, before any Notify can arrive, so that no departure is
    /// missed: a connection that leaves gets `NameOwnerChanged(name, name, "")` for its unique
    /// name, which the bus sends to whoever matches it. (`NameLost` would not do: the bus sends
    /// it only to the connection that loses the name.) The bus delivers a poster's Notify
    /// before the signal of its departure.
    private func watchDepartures(on connection: DBusConnection) async throws {
        let rule = DBusMatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", signature: "sss")
        _ = try await connection.subscribe(to: [rule]) { [weak self] event in
            guard case .signal(let message) = event, let arguments = try? message.arguments("sss"),
                  let name = arguments[0].stringValue, name.hasPrefix(":"), arguments[2].stringValue == ""
            else { return }
            self?.posterLeft(name)
        }
    }

    /// Plays ``ServerPersonality/posterDeparture`` on the live notifications of `poster`.
    private func posterLeft(_ poster: String) {
        let ids = state.withLock { state in
            state.departed.insert(poster)
            return state.live.filter { $0.value.sender == poster }
                .sorted { $0.value.firstGeneration < $1.value.firstGeneration }.map(\.key)
        }
        afterDeparture(of: ids)
    }

    /// What the personality does to notifications `ids`, whose poster has left the bus.
    private func afterDeparture(of ids: [UInt32]) {
        switch personality.posterDeparture {
        case .keep:
            return
        case .closeMatched:
            let matched = state.withLock { state in
                ids.filter { state.live[$0].map { Self.matchesInstalledApp($0.request) } ?? false }
            }
            for id in matched { close(id: id, reason: .dismissed) }
        case .stripActions:
            record { state in
                for id in ids { state.live[id]?.actionsRemoved = true }
            }
        }
    }

    /// Whether GNOME Shell would have matched `request` to an installed app. The fake server has
    /// no installed apps, so a non-empty `desktop-entry` hint stands for a match.
    private static func matchesInstalledApp(_ request: NotifyRequest) -> Bool {
        !(request.hints.desktopEntry ?? "").isEmpty
    }

    // MARK: - Records

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The Notify calls so far, with their ids.
    public var notifications: [(request: NotifyRequest, sender: String, id: UInt32?)] {
        calls.compactMap { call in
            if case .notify(let request, let sender, let id) = call { (request, sender, id) } else { nil }
        }
    }

    /// The ids that are live now.
    public var liveIDs: Set<UInt32> { state.withLock { Set($0.live.keys) } }

    /// The actions notification `id` offers now (those of the Notify that showed it), empty
    /// once the personality removed them (``ServerPersonality/PosterDeparture/stripActions``);
    /// nil when `id` is not live.
    public func actions(of id: UInt32) -> [NotificationAction]? {
        state.withLock { state in
            state.live[id].map { $0.actionsRemoved ? [] : $0.request.actions }
        }
    }

    /// Waits until the recorded calls satisfy `predicate`, at most `timeout`; returns the
    /// calls then (check the predicate again to know whether the wait timed out).
    @discardableResult
    public func waitForCalls(
        timeout: Duration = .seconds(5), until predicate: @escaping @Sendable ([Call]) -> Bool
    ) async -> [Call] {
        let timer = Task {
            do { try await Task.sleep(for: timeout) } catch { return }
            self.releaseWaiters(force: true)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ready: [Call]? = state.withLock { state in
                if predicate(state.calls) { return state.calls }
                state.waiters.append((predicate, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits for the `count`-th Notify call to be answered and returns its id.
    public func waitForNotify(count: Int = 1, timeout: Duration = .seconds(5)) async -> UInt32? {
        let calls = await waitForCalls(timeout: timeout) { calls in
            calls.filter { if case .notify(_, _, .some) = $0 { true } else { false } }.count >= count
        }
        let answered = calls.compactMap { call -> UInt32? in
            if case .notify(_, _, let id) = call { id } else { nil }
        }
        return answered.count >= count ? answered[count - 1] : nil
    }

    private func releaseWaiters(force: Bool) {
        let ready = state.withLock { state in
            var ready: [(CheckedContinuation<[Call], Never>, [Call])] = []
            state.waiters.removeAll { waiter in
                guard force || waiter.predicate(state.calls) else { return false }
                ready.append((waiter.continuation, state.calls))
                return true
            }
            return ready
        }
        for (continuation, calls) in ready { continuation.resume(returning: calls) }
    }

    private func record(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
        releaseWaiters(force: false)
    }

    // MARK: - NotificationServerHandler

    public func notify(_ request: NotifyRequest, sender: String, reply: NotificationServerReply<UInt32>) {
        let script = self.script
        var callIndex = 0
        var assigned: UInt32 = 0
        record { state in
            callIndex = state.calls.count
            state.calls.append(.notify(request, sender: sender, id: nil))
            if request.replacesID != 0, state.live[request.replacesID] != nil {
                assigned = request.replacesID
            } else if request.replacesID != 0, personality.unknownReplacement == .adoptRequested {
                assigned = request.replacesID
                state.nextID = max(state.nextID, request.replacesID + 1)
            } else {
                assigned = state.nextID
                state.nextID += 1
            }
        }
        if script.hangOnNotify { return }
        let faults = script.faultsForNotify?(request)
        if let key = faults?.actionBeforeReply ?? script.actionBeforeReply {
            signal(to: sender) { try $0.emitActionInvoked(id: assigned, actionKey: key, to: $1) }
        }
        let crash = faults?.crashAfterReply == true
        guard let delay = faults?.replyDelay ?? script.replyDelay else {
            answer(request, sender: sender, id: assigned, callIndex: callIndex, reply: reply)
            if crash { crashNow() }
            return
        }
        let assignedID = assigned
        let index = callIndex
        Task {
            try? await Task.sleep(for: delay)
            self.answer(request, sender: sender, id: assignedID, callIndex: index, reply: reply)
            if crash { self.crashNow() }
        }
    }

    /// Closes the connection right after the current handler returns (on a task: a handler
    /// runs on the connection's executor, where closing cannot be awaited).
    private func crashNow() {
        Task { await self.stop() }
    }

    private func answer(
        _ request: NotifyRequest, sender: String, id: UInt32, callIndex: Int, reply: NotificationServerReply<UInt32>
    ) {
        var generation = 0
        var pushedOut: [UInt32] = []
        var posterGone = false
        record { state in
            state.generations += 1
            generation = state.generations
            let first = state.live[id]?.firstGeneration
            if first == nil, let limit = personality.maximumPerSender {
                pushedOut = Self.oldest(of: sender, in: state.live, beyond: limit - 1)
            }
            state.live[id] = Live(request: request, sender: sender, generation: generation, firstGeneration: first ?? generation)
            state.calls[callIndex] = .notify(request, sender: sender, id: id)
            posterGone = state.departed.contains(sender)
        }
        reply.succeed(id)
        for old in pushedOut { close(id: old, reason: .expired) }
        if personality.closesRightAway, !script.neverClose { close(id: id, reason: .undefined) }
        if personality.honoursExpiry, case .milliseconds(let timeout) = request.expiry, !script.neverClose {
            expire(id: id, generation: generation, after: .milliseconds(Int(timeout)))
        }
        // A late answer (a reply delay) to a poster that has left meanwhile.
        if posterGone { afterDeparture(of: [id]) }
    }

    /// The ids of `sender`'s live notifications that must go, oldest first, so that at most
    /// `kept` remain.
    private static func oldest(of sender: String, in live: [UInt32: Live], beyond kept: Int) -> [UInt32] {
        let own = live.filter { $0.value.sender == sender }.sorted { $0.value.firstGeneration < $1.value.firstGeneration }
        return own.prefix(max(0, own.count - kept)).map(\.key)
    }

    /// Closes `id` with reason 1 after `delay`, unless it was closed or replaced meanwhile.
    private func expire(id: UInt32, generation: Int, after delay: Duration) {
        Task {
            try? await Task.sleep(for: delay)
            let current = self.state.withLock { $0.live[id]?.generation == generation }
            if current { self.close(id: id, reason: .expired) }
        }
    }

    public func closeNotification(id: UInt32, sender: String, reply: NotificationServerReply<Void>) {
        let script = self.script
        var wasLive = false
        record { state in
            state.calls.append(.closeNotification(id: id, sender: sender))
            wasLive = state.live[id] != nil
            if wasLive, script.neverClose { state.live.removeValue(forKey: id) }
        }
        if !wasLive, personality.unknownClose == .invalidIDError {
            return reply.fail(name: "org.freedesktop.Notifications.InvalidId", message: "no notification \(id)")
        }
        reply.succeed()
        if wasLive, !script.neverClose { close(id: id, reason: .closedByCall) }
        if !wasLive, personality.unknownClose == .closedSignal {
            signal(to: sender) { try $0.emitClosed(id: id, reason: .closedByCall, to: $1) }
        }
    }

    public func capabilities() -> [NotificationCapability] { personality.capabilities }

    public func serverInformation() -> NotificationServerInformation { personality.information }

    // MARK: - Acting as the person in front of the screen

    /// The person clicked action `key` of notification `id`: `ActivationToken` (when given),
    /// `ActionInvoked`, then (unless the notification is resident, or the personality keeps
    /// it open after an action other than `default`) `NotificationClosed(id, 2)`.
    /// The script can move the close first (``Script/closeBeforeAction``), reverse the whole
    /// order (``Script/reverseSignals``) or drop the close (``Script/neverClose``).
    ///
    /// A notification whose actions were removed (``ServerPersonality/PosterDeparture/stripActions``)
    /// refuses: nothing is sent and it stays open.
    public func invokeAction(id: UInt32, key: String = NotificationAction.defaultKey, activationToken: String? = nil) {
        if actionsRemoved(id) { return }
        let script = self.script
        let poster = posterOf(id)
        let resident = state.withLock { $0.live[id]?.request.hints.resident } ?? false
        let staysOpen = resident || (key != NotificationAction.defaultKey && !personality.closesAfterAction)
        var emissions: [() -> Void] = []
        if let activationToken {
            emissions.append { self.signal(to: poster) { try $0.emitActivationToken(id: id, token: activationToken, to: $1) } }
        }
        emissions.append { self.signal(to: poster) { try $0.emitActionInvoked(id: id, actionKey: key, to: $1) } }
        if !script.neverClose {
            let close = { self.close(id: id, reason: .dismissed) }
            if script.closeBeforeAction {
                emissions.insert(close, at: 0)
            } else if !staysOpen {
                emissions.append(close)
            }
        }
        if script.reverseSignals { emissions.reverse() }
        for emit in emissions { emit() }
    }

    /// The person typed `text` into the inline reply field (KDE). Refused, like
    /// ``invokeAction(id:key:activationToken:)``, once the notification's actions were removed.
    public func reply(id: UInt32, text: String) {
        if actionsRemoved(id) { return }
        let poster = posterOf(id)
        // KDE sends NotificationReplied only to the poster, whatever its signal policy.
        signal(to: poster, forceUnicast: true) { try $0.emitReplied(id: id, text: text, to: $1) }
        if !script.neverClose { close(id: id, reason: .dismissed) }
    }

    /// Closes `id` with `reason` (dismissed by the person, expired, ...).
    public func close(id: UInt32, reason: NotificationCloseReason) {
        let poster = posterOf(id)
        record { _ = $0.live.removeValue(forKey: id) }
        signal(to: poster) { try $0.emitClosed(id: id, reason: reason, to: $1) }
    }

    /// Emits `ActionInvoked` for an id this server never gave out (another app's, on a
    /// broadcasting server).
    public func broadcastForeignAction(id: UInt32, key: String = NotificationAction.defaultKey) {
        signal(to: nil, forceBroadcast: true) { try $0.emitActionInvoked(id: id, actionKey: key, to: $1) }
    }

    private func actionsRemoved(_ id: UInt32) -> Bool {
        state.withLock { $0.live[id]?.actionsRemoved ?? false }
    }

    private func posterOf(_ id: UInt32) -> String? {
        state.withLock { $0.live[id]?.sender }
    }

    private func signal(
        to poster: String?, forceUnicast: Bool = false, forceBroadcast: Bool = false,
        _ emit: (NotificationServer, String?) throws -> Void
    ) {
        let unicast = !forceBroadcast && (forceUnicast || personality.unicastSignals)
        let destination = unicast ? poster : nil
        if unicast && poster == nil { return }
        let times = script.duplicateSignals ? 2 : 1
        for _ in 0..<times { try? emit(server, destination) }
    }
}
