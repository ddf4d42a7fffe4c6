import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The one engine, whatever the notifications go to: validation, pending requests and their
/// scheduler and region watch, the delivered list, responses, and persistence, in front of a
/// ``NotificationTransport``: the freedesktop service (``FreedesktopTransport``), in the app's
/// process or for each app in the agent
/// (``agentApp(identity:client:clock:host:stateDirectory:locationHub:undelivered:taskExecutor:saves:)``);
/// the portal or GNOME's interface (``ServiceTransport``).
///
/// One inbox carries both the center's calls (in call order) and the transport's channel (the
/// server's events and the outcomes of the engine's posts, in the order the server gave them);
/// the actor takes them one at a time, in that order: order is kept by construction, never
/// repaired.
///
/// Whoever waits drains the inbox on the actor itself. A caller's task hops onto the idle
/// actor without a thread switch, so an `add` posts its `Notify` from the caller's own
/// thread; its reply wakes that same task, which takes the reply (and any signal before it)
/// in order. A signal, which nobody waits for, is taken by a task started for it. Slow work
/// (the delegate's answer, a server round trip) runs off the actor and comes back as a call on
/// it or an item of the channel.
package actor EngineCore: NotificationEngine {
    /// A late `ActionInvoked` after its `NotificationClosed` still counts within this time.
    static let closeGracePeriod: Duration = .milliseconds(250)

    package nonisolated let identity: ApplicationIdentity
    /// Where the notifications go: the freedesktop service (``FreedesktopTransport``), or a
    /// service such as the portal (``ServiceTransport``).
    nonisolated let transport: any NotificationTransport
    nonisolated let clock: any NotificationClock
    /// Set in the agent
    /// (``agentApp(identity:client:clock:host:stateDirectory:locationHub:undelivered:taskExecutor:saves:)``):
    /// an immediate request is accepted (its `add` returns) once it is validated, its
    /// attachments taken and it is kept in the pending list with no trigger, saved as scheduled
    /// requests are; it is delivered after, and leaves that list when the server took it. A delivery that fails then is reported here and the
    /// request stays, delivered again when a notification server gets the name (or at the
    /// next start). `nil` in the app's own process: `add` returns when the server answered.
    nonisolated let undeliveredAfterAcceptance: (@Sendable (String, NotificationDeliveryError) -> Void)?
    /// Where the engine's own drains run when nobody waits for them (`nil`: the global
    /// executor); the agent's engines take the replies and signals they read on the D-Bus I/O
    /// thread that read them (`DBusLoopExecutor`), with no other thread woken.
    nonisolated let taskExecutor: (any TaskExecutor)?
    private let hostReference: EngineHostReference
    /// The app served; `nil` once it has gone.
    var host: (any EngineHost)? { hostReference.host }
    /// The state file and the bookkeeping of its saves.
    let stateStore: EngineStateStore
    /// The group whose saves the engine's are spaced with (``SaveLoad``).
    package nonisolated var saves: SaveLoad { stateStore.load }
    let attachmentStore: AttachmentStore?
    private nonisolated let inbox = Locked<[EngineInput]>([])
    /// The callers waiting for the replies to their posts, by tag: a reply wakes its caller,
    /// which drains the inbox itself.
    private nonisolated let replyWaiters = Locked<[UInt64: EngineAnswer<Result<Void, any Error>>]>([:])
    /// The `Notify` calls prepared for whoever gets the delegate's answer, by identifier (one
    /// delivery per identifier is under way); the engine voids them before any change their
    /// arguments depend on.
    nonisolated let postTickets = Locked<[String: PostTicket]>([:])
    /// The sounds of `Notify` calls on the wire that the server will not play (it has no
    /// `sound` capability), by tag: played here when it accepts them (``EventSoundPlayer``).
    nonisolated let soundsToPlay = Locked<[UInt64: EventSound]>([:])
    /// What the channel's items since the last ``wakeForReceived()`` asked to wake.
    private nonisolated let wakeUps = Locked(ReceivedWakeUps())
    private var startup: Task<Void, Never>?
    private var started = false
    private var closed = false
    var scheduler: PendingScheduler<String>?
    /// The regions of the pending location triggers, and the location service they are
    /// watched through (shared with other engines in the agent).
    nonisolated let regionWatch: RegionWatch

    var categories: [String: UNNotificationCategory] = [:]
    var pending = PendingTable()
    var delivered = DeliveredTable()
    var deliveries = DeliveryQueue()
    /// Kept requests whose delivery was under way when a server got the name: tried once more
    /// if that delivery fails (``retryKept()``).
    var keptRetries: Set<String> = []
    var ledger: AttachmentLedger
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []
    /// The owner of the notification service as of the last channel item.
    var owner: String?
    /// The capabilities of the server that answered `GetCapabilities` last.
    var capabilityCache: (server: String, capabilities: Set<NotificationCapability>)?
    /// The deliveries waiting for the server's capabilities, in the order they came, while a
    /// `GetCapabilities` is on its way; `nil` when none is.
    var capabilityWaiters: [UInt64]?
    private var lastTag: UInt64 = 0

    /// The save running off the actor (``savesOffActor``), until its result is recorded; one
    /// at a time.
    var saveUnderWay: Task<Void, Never>?
    /// A change came while ``saveUnderWay`` ran: another save follows it.
    var saveFollows = false

    /// Whether the state file's blocking work runs off the actor, on a thread of its own
    /// (``StateFileThread``), while the actor goes on taking inputs: set for the engines
    /// whose drains run on ``taskExecutor`` (the agent's, on the D-Bus I/O thread that serves
    /// every app). An app's own engine writes on the actor instead, before the change's call
    /// returns, so a process that adds one request and exits keeps it.
    nonisolated var savesOffActor: Bool { taskExecutor != nil }

    /// Makes the engine in front of the freedesktop service, reached through `client`
    /// (``FreedesktopTransport``), and starts its loop, which ends with ``close()``.
    ///
    /// - Parameter stateDirectory: where state is kept, or `nil` to keep none; a failure keeps
    ///   none and is reported (``writeStateNow()``).
    static func start(
        identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, locationHub: LocationHub? = nil,
        undeliveredAfterAcceptance: (@Sendable (String, NotificationDeliveryError) -> Void)? = nil,
        taskExecutor: (any TaskExecutor)? = nil, saves: SaveLoad = SaveLoad()
    ) -> EngineCore {
        start(
            identity: identity, transport: FreedesktopTransport(client: client, identity: identity), clock: clock, host: host,
            stateDirectory: stateDirectory, locationHub: locationHub, undeliveredAfterAcceptance: undeliveredAfterAcceptance,
            taskExecutor: taskExecutor, saves: saves)
    }

    /// Makes the engine in front of `transport` and starts its loop, which ends with
    /// ``close()``.
    static func start(
        identity: ApplicationIdentity, transport: any NotificationTransport, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, locationHub: LocationHub? = nil,
        undeliveredAfterAcceptance: (@Sendable (String, NotificationDeliveryError) -> Void)? = nil,
        taskExecutor: (any TaskExecutor)? = nil, saves: SaveLoad = SaveLoad()
    ) -> EngineCore {
        let engine = EngineCore(
            identity: identity, transport: transport, clock: clock, host: host, stateDirectory: stateDirectory,
            locationHub: locationHub ?? LocationHub(desktopID: identity.id), undeliveredAfterAcceptance: undeliveredAfterAcceptance,
            taskExecutor: taskExecutor, saves: saves)
        // The first drain starts the engine (the state read, the server's name) on the global
        // executor: a large state is not read on the D-Bus I/O thread.
        Task { await engine.drain() }
        return engine
    }

    private init(
        identity: ApplicationIdentity, transport: any NotificationTransport, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, locationHub: LocationHub,
        undeliveredAfterAcceptance: (@Sendable (String, NotificationDeliveryError) -> Void)?, taskExecutor: (any TaskExecutor)?,
        saves: SaveLoad
    ) {
        self.identity = identity
        self.undeliveredAfterAcceptance = undeliveredAfterAcceptance
        self.taskExecutor = taskExecutor
        self.regionWatch = RegionWatch(hub: locationHub)
        self.transport = transport
        self.clock = clock
        self.hostReference = host
        self.stateStore = EngineStateStore(stateDirectory: stateDirectory, load: saves)
        self.attachmentStore = AttachmentStore(stateDirectory: stateDirectory)
        self.ledger = AttachmentLedger(store: attachmentStore)
    }

    // MARK: - The inbox

    /// Takes every input waiting in the inbox, in order, once the engine has started; returns
    /// when the inbox is empty. Inputs are taken without suspending, so when it returns every
    /// input put in before the call has been taken.
    func drain() async {
        if !started { await start() }
        while true {
            let batch = inbox.withLock { inbox in
                defer { inbox = [] }
                return inbox
            }
            if batch.isEmpty { return }
            for input in batch { take(input) }
        }
    }

    /// Puts an input in the inbox; its place there is its order.
    private nonisolated func submit(_ input: EngineInput) {
        inbox.withLock { $0.append(input) }
    }

    /// Puts an input in and wakes `waiter`, whose task drains; drains in a new task when there
    /// is none, or when it was not waiting (it may have drained for the last time already).
    nonisolated func submitAndWake(_ input: EngineInput, _ waiter: EngineAnswer<Result<Void, any Error>>?) {
        submit(input)
        if let waiter, waiter.wake() { return }
        drainInTask()
    }

    /// Puts an input in and drains in a new task, for a caller that does not wait.
    private nonisolated func submitInBackground(_ input: EngineInput) {
        submit(input)
        drainInTask()
    }

    /// Drains in a new task, on ``taskExecutor`` when there is one.
    private nonisolated func drainInTask() {
        Task(executorPreference: taskExecutor) { await self.drain() }
    }

    /// An item of the client's channel, on the connection's executor: a reply wakes the caller
    /// waiting for it; anything else gets a task to take it. The item takes its place in the
    /// inbox at once; the wake-up waits until the connection's executor is free, which the
    /// woken caller may need next.
    ///
    /// The wake-ups of one read go together: a caller that waited for its reply, woken, takes
    /// the signals that came with it too, so they need no task of their own.
    private nonisolated func receive(_ item: TransportItem) {
        submit(.channel(item))
        var waiter: EngineAnswer<Result<Void, any Error>>?
        if case .posted(let tag, _) = item.kind { waiter = replyWaiters.withLock { $0.removeValue(forKey: tag) } }
        let first = wakeUps.withLock { wakeUps in
            if let waiter { wakeUps.waiters.append(waiter) } else { wakeUps.drainWanted = true }
            defer { wakeUps.scheduled = true }
            return !wakeUps.scheduled
        }
        if first { DBusConnection.afterHandling(wakeForReceived) }
    }

    /// Wakes the callers whose replies came; a task drains when nobody who waited was woken
    /// (``ReceivedWakeUps/wake()``).
    private nonisolated func wakeForReceived() {
        let due = wakeUps.withLock { wakeUps in
            defer { wakeUps = ReceivedWakeUps() }
            return wakeUps
        }
        if due.wake() { drainInTask() }
    }

    /// Makes the reply to the post `tag` wake `waiter`.
    func wakeOnReply(_ tag: UInt64, _ waiter: EngineAnswer<Result<Void, any Error>>) {
        replyWaiters.withLock { $0[tag] = waiter }
    }

    /// The delivery `tag` ended: no reply will wake anyone for it.
    func forgetReplyWaiter(_ tag: UInt64) {
        replyWaiters.withLock { _ = $0.removeValue(forKey: tag) }
    }

    /// Opens the channel and restores the saved state, once; inputs wait for it.
    private func start() async {
        if let startup { return await startup.value }
        let startup = Task { await self.startUp() }
        self.startup = startup
        await startup.value
        started = true
    }

    private func startUp() async {
        await transport.open { [weak self] item in self?.receive(item) }
        scheduler = PendingScheduler(clock: clock) { [weak self] identifier, deadline in
            Task { await self?.fire(identifier, due: deadline) }
        }
        // Delivered notifications come back only while the server instance that shows them
        // still owns the name, which is known once the client has connected. Without a bus
        // the connection fails at once and they are dropped, as they should be.
        if stateStore.file != nil {
            do {
                try await transport.connect()
            } catch {
                SubsystemLog.center.logger.info("no notification service at start", metadata: ["error": SubsystemLog.describe(error)])
            }
        }
        regionWatch.subscribe { [weak self] event in await self?.takeLocation(event) }
        if savesOffActor { await restoreOffActor() } else { restore() }
    }

    private func take(_ input: EngineInput) {
        guard !closed else { return }
        switch input {
        case .add(let request, let presentation, let files, let answer): accept(request, presentation: presentation, files: files, waiter: answer)
        case .pendingRequests(let answer): answer.resolve(pending.requests.filter { PendingEntry.isScheduled($0) })
        case .removePending(let identifiers): cancelScheduled(identifiers)
        case .deliveredNotifications(let answer): answer.resolve(delivered.notifications)
        case .removeDelivered(let identifiers): removeDelivered(identifiers ?? Array(delivered.live.keys), unlisted: identifiers != nil)
        case .setCategories(let categories): replaceCategories(categories)
        case .categories(let answer): answer.resolve(Set(categories.values))
        case .setAuthorization(let status, let options): setAuthorization(status, options: options)
        case .authorization(let answer):
            answer.resolve(EngineAuthorizationRecord(status: authorizationStatus, options: authorizationOptions))
        case .channel(let item): handle(item)
        case .click(let click, let answer): answer.resolve(take(click))
        case .presented(let tag, let options): presented(tag, options: options)
        case .close: shutDown()
        }
    }

    private func shutDown() {
        closed = true
        voidTickets()
        transport.shut()
        scheduler?.cancelAll()
        regionWatch.stop()
        flushWaitingSave()
    }

    func nextTag() -> UInt64 {
        lastTag += 1
        return lastTag
    }

    // MARK: - The interface

    package nonisolated func add(_ request: UNNotificationRequest) async throws {
        try await add(request, presentation: nil)
    }

    /// Adds `request`; an immediate one is shown with `presentation` when given, without
    /// asking the host (the agent's app answered before it sent the request).
    ///
    /// `accepted` is called as the engine gives a successful answer, on the engine's actor,
    /// before this returns: in the agent that is at acceptance, before the delivery's `Notify`
    /// is built and written, so the agent answers the app's call first.
    ///
    /// `files`, one open descriptor per attachment, in order, are what the attachments' bytes
    /// are copied from (they stay the caller's, open until this returns); without them the
    /// store opens the paths the attachments name.
    package nonisolated func add(
        _ request: UNNotificationRequest, presentation: UNNotificationPresentationOptions?, files: [Int32]? = nil,
        accepted: (@Sendable () -> Void)? = nil
    ) async throws {
        if let trigger = request.trigger as? UNLocationNotificationTrigger, trigger.regionRecord.problem == nil {
            try await prepareLocation(adding: trigger.regionRecord)
        }
        var onResolve: (@Sendable (Result<Void, any Error>) -> Void)?
        if let accepted {
            onResolve = { result in if case .success = result { accepted() } }
        }
        let answer = EngineAnswer<Result<Void, any Error>>(onResolve: onResolve)
        submit(.add(request, presentation, files: files, answer))
        await drain()
        while answer.value == nil {
            await answer.nextWake()
            await drain()
        }
        try answer.value?.get()
    }

    /// Puts a query in and drains: the answer is there when the drain returns.
    private nonisolated func ask<Value: Sendable>(
        _ input: (EngineAnswer<Value>) -> EngineInput, otherwise fallback: Value
    ) async -> Value {
        let answer = EngineAnswer<Value>()
        submit(input(answer))
        await drain()
        return answer.value ?? fallback
    }

    package nonisolated func pendingRequests() async -> [UNNotificationRequest] {
        await ask(EngineInput.pendingRequests, otherwise: [])
    }

    package nonisolated func removePendingRequests(withIdentifiers identifiers: [String]?) {
        submitInBackground(.removePending(identifiers))
    }

    package nonisolated func deliveredNotifications() async -> [UNNotification] {
        await ask(EngineInput.deliveredNotifications, otherwise: [])
    }

    package nonisolated func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        submitInBackground(.removeDelivered(identifiers))
    }

    package nonisolated func setCategories(_ categories: Set<UNNotificationCategory>) {
        submitInBackground(.setCategories(categories))
    }

    package nonisolated func categories() async -> Set<UNNotificationCategory> {
        await ask(EngineInput.categories, otherwise: [])
    }

    package nonisolated func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        let granted = await serverReachable()
        submit(.setAuthorization(granted ? .authorized : .denied, options))
        await drain()
        return granted
    }

    package nonisolated func authorization() async -> EngineAuthorization {
        let record = await ask(EngineInput.authorization, otherwise: EngineAuthorizationRecord(status: .notDetermined, options: []))
        return EngineAuthorization(
            status: record.status, options: record.options, capabilities: await currentCapabilities(),
            location: await regionWatch.setting())
    }

    package nonisolated func setBadgeCount(_ count: Int) async throws {
        do {
            try await transport.setBadge(appID: identity.id, count: count)
        } catch {
            throw NotificationDeliveryError(error)
        }
    }

    package nonisolated func writeStateNow() async throws {
        try await writeStateInOrder()
    }

    /// Closes the engine as ``close()`` does, and returns once the save under way and the one
    /// the close started are written (or failed, which is logged): nothing of the engine
    /// touches its state folder after.
    package nonisolated func closeAfterSaving() async {
        submit(.close)
        await drain()
        await settleSaves()
    }

    /// The click `id`, the target of an `org.freedesktop.Application.ActivateAction` from
    /// the unique name `sender`, stands for, as the transport reads it
    /// (``NotificationTransport/click(target:activationToken:sender:)``), taken as the
    /// server's own clicks are (``take(_:)``); `false` when the transport or the engine
    /// refuses it. The freedesktop service's responses come as its signals instead: there is
    /// none to take this way.
    nonisolated func takeActivatedResponse(_ id: String, activationToken: String?, sender: String) async -> Bool {
        guard let click = await transport.click(target: id, activationToken: activationToken, sender: sender) else { return false }
        return await ask({ .click(click, $0) }, otherwise: false)
    }

    /// In process for the freedesktop service; the portal or GNOME for theirs.
    nonisolated func kind() async -> NotificationEngineKind { transport.kind }

    nonisolated func applicationInterfaceServed() {
        transport.applicationInterfaceServed()
    }

    package nonisolated func close() {
        submitInBackground(.close)
    }

    // MARK: - Categories and authorization

    private func replaceCategories(_ categories: Set<UNNotificationCategory>) {
        voidTickets()
        self.categories = Dictionary(categories.map { ($0.identifier, $0) }) { first, _ in first }
        scheduleSave()
    }

    private func setAuthorization(_ status: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        authorizationStatus = status
        authorizationOptions = options
        scheduleSave()
    }

    /// Whether a server is reachable and the desktop lets the app notify.
    private nonisolated func serverReachable() async -> Bool {
        guard !GnomeNotificationSwitch.isTurnedOff(appID: identity.id) else { return false }
        do {
            return try await transport.isServerAvailable()
        } catch {
            SubsystemLog.center.logger.info("no notification service reachable", metadata: ["error": SubsystemLog.describe(error)])
            return false
        }
    }

    /// The current server's capabilities (asked once per server instance), or `nil` with no
    /// server.
    func currentCapabilities() async -> Set<NotificationCapability>? {
        if let cache = capabilityCache, cache.server == owner ?? transport.serverOwner { return cache.capabilities }
        do {
            let answer = try await transport.capabilityAnswer()
            let capabilities = Set(answer.capabilities)
            learned(capabilities, of: answer.server)
            return capabilities
        } catch {
            SubsystemLog.center.logger.info("the server's capabilities are not known", metadata: ["error": SubsystemLog.describe(error)])
            return nil
        }
    }
}

/// The wake-ups that the channel's items of one read ask for, done together once the read is
/// over (``EngineCore``).
struct ReceivedWakeUps {
    /// Callers whose replies came: each drains the whole inbox when woken.
    var waiters: [EngineAnswer<Result<Void, any Error>>] = []
    /// An item no waiter was woken for came.
    var drainWanted = false
    /// The wake-up is on its way.
    var scheduled = false

    /// Wakes the waiters; returns whether a task must drain for the items no waiter was woken
    /// for. A caller woken while it waited drains after the wake, so it takes them. One that
    /// did not wait may have taken its reply in a drain of its own, as the read went on, and
    /// returned before the signals after it reached the inbox: nobody else would take them
    /// until the next call (a click that never reached the delegate while the app waited for it).
    func wake() -> Bool {
        var drainFollows = false
        for waiter in waiters {
            if waiter.wake() { drainFollows = true }
        }
        return drainWanted && !drainFollows
    }
}

/// A `Notify` the engine prepared for whoever gets the delegate's answer: everything but the
/// presentation options, as the engine would compute it now. Whoever claims it from
/// ``EngineCore/postTickets`` posts it; the engine voids it first when the server, its
/// capabilities, the categories or the notification's delivered entry change, and then posts
/// itself.
struct PostTicket: Sendable {
    let tag: UInt64
    let notification: UNNotification
    var request: UNNotificationRequest { notification.request }
    let category: UNNotificationCategory?
    /// The server's capabilities, as the engine knew them.
    let capabilities: Set<NotificationCapability>
    let replacesID: UInt32
    /// A content extension shows it: posted resident.
    let intercepted: Bool
}
