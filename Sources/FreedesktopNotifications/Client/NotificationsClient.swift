public import DBus
import DesktopNotificationsSupport

/// A client of the freedesktop notification service.
///
/// The client keeps one long-lived private bus connection. Before its first call it
/// subscribes to the service's signals and follows the owner of
/// `org.freedesktop.Notifications`, so that:
/// - no early signal is missed (the rules are in place before the first `Notify`);
/// - a signal counts only when its sender is the current owner (spoofed signals from any
///   other peer are dropped, and nothing is delivered while no server runs);
/// - a change of server is reported as ``NotificationEvent/serverChanged(oldOwner:newOwner:)``.
///
/// When the bus goes away, calls fail with ``NotificationsError/bus(_:)`` wrapping
/// `DBusError.disconnected` (module `DBus`), event streams get ``NotificationEvent/disconnected``, and the
/// next call connects again.
///
/// Every call to the server has a deadline (`callTimeout`, 5 s by default; calls to the bus
/// daemon itself get at least 5 s), so a missing or hanging server
/// costs at most that long, never libdbus's 25 s.
public final class NotificationsClient: Sendable {
    private struct Link: Sendable {
        let connection: DBusConnection
        let subscription: DBusSignalHandle
    }

    private struct State {
        var link: Link?
        var connecting: Task<Link, any Error>?
        var owner: String?
        /// An owner change was received since the link was made: the owner resolved when
        /// subscribing is older than it.
        var ownerChangeSeen = false
        var consumers: [UInt64: AsyncStream<NotificationEvent>.Continuation] = [:]
        var channels: [UInt64: @Sendable (NotificationChannelItem) -> Void] = [:]
        /// The channel whose post each notification is, once its `Notify` reply told the id:
        /// the signals of that notification go to that channel alone.
        var poster: [PostedID: UInt64] = [:]
        var nextConsumer: UInt64 = 0
        var sequence: UInt64 = 0

        /// The next item, numbered in receive order, with the owner as of now.
        mutating func item(_ kind: NotificationChannelItem.Kind) -> NotificationChannelItem {
            sequence += 1
            return NotificationChannelItem(sequence: sequence, owner: owner, kind: kind)
        }
    }

    /// A notification as a server instance numbered it.
    private struct PostedID: Hashable {
        let server: String
        let id: UInt32
    }

    /// The most notifications whose channel is remembered (``State/poster``); past it the table
    /// starts again, and the signals of the notifications it forgot go to every channel, as
    /// those of a notification posted elsewhere do.
    static let posterMemory = 65_536

    /// The deadline of calls to the bus daemon (connecting, subscribing).
    static let busTimeout: Duration = .seconds(5)

    /// The bus this client uses.
    public let bus: DBusBus
    /// The deadline of each call.
    public let callTimeout: Duration
    /// The client-side caps checked before sending.
    public let limits: NotificationLimits
    private let state = Locked(State())
    /// The connection given at `init(sharing:)`, which the client uses instead of making one
    /// of its own, and never closes.
    private let shared: DBusConnection?

    /// Creates a client; it connects on first use.
    public init(bus: DBusBus = .session, callTimeout: Duration = .seconds(5), limits: NotificationLimits = NotificationLimits()) {
        self.bus = bus
        self.callTimeout = callTimeout
        self.limits = limits
        shared = nil
    }

    /// A client that uses `connection`, which its owner keeps and closes: a process that
    /// serves others (the agent, with one engine per app) talks to the server, and hears its
    /// signals, over the one connection it serves from. The client subscribes on first use;
    /// once the connection is lost, its calls fail with ``NotificationsError/bus(_:)`` and it
    /// does not connect again.
    ///
    /// - Parameter bus: The bus `connection` is on (``bus`` reports it).
    package init(sharing connection: DBusConnection, on bus: DBusBus, callTimeout: Duration = .seconds(5)) {
        self.bus = bus
        self.callTimeout = callTimeout
        limits = NotificationLimits()
        shared = connection
    }

    deinit {
        let (connecting, link, consumers) = state.withLock { state in
            (state.connecting, state.link, Array(state.consumers.values))
        }
        connecting?.cancel()
        link?.subscription.cancel()
        for consumer in consumers { consumer.finish() }
    }

    // MARK: - Events

    /// A stream of the events from now on. Each call makes a new stream; each stream gets
    /// every event, in order. Events arrive only once the client is connected (any call, or
    /// ``connect()``).
    public func events() -> AsyncStream<NotificationEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: NotificationEvent.self)
        let id = state.withLock { state in
            state.nextConsumer += 1
            state.consumers[state.nextConsumer] = continuation
            return state.nextConsumer
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.consumers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The unique name of the server now owning `org.freedesktop.Notifications`, as last seen.
    public var serverOwner: String? {
        state.withLock { $0.owner }
    }

    /// Opens an ordered channel: `handler` gets the replies to the posts made through this
    /// channel (``post(_:tag:on:)``) and the events, one at a time, in the order the socket gave
    /// them, on the connection's executor. It must not block: hand the item on (to a stream).
    /// The signals of a notification another channel posted (its reply told the id) go to
    /// that channel alone; every other event goes to every channel.
    package func openChannel(_ handler: @escaping @Sendable (NotificationChannelItem) -> Void) -> NotificationChannel {
        let id = state.withLock { state in
            state.nextConsumer += 1
            state.channels[state.nextConsumer] = handler
            return state.nextConsumer
        }
        return NotificationChannel(id: id) { [weak self] in
            self?.state.withLock { state in
                state.channels.removeValue(forKey: id)
                state.poster = state.poster.filter { $0.value != id }
            }
        }
    }

    /// Hands `event` to every stream, and to every channel, or, for a signal of a notification
    /// a channel posted, to that channel alone: an agent whose apps share one client wakes only
    /// the app a click or a close is for. A signal of a notification whose reply has not come
    /// yet (a server may signal first), or that was posted elsewhere or before this client
    /// ran, goes to every channel, and each keeps or drops it. Yields happen outside the lock:
    /// a stream being cancelled holds its task's lock while its termination handler takes
    /// ours, so yielding under our lock can deadlock (it did, under ThreadSanitizer's timing).
    private func publish(_ event: NotificationEvent) {
        let (consumers, channels, item) = state.withLock { state in
            (Array(state.consumers.values), Self.channels(for: event, in: &state), state.item(.event(event)))
        }
        for consumer in consumers { consumer.yield(event) }
        for channel in channels { channel(item) }
    }

    /// The channels `event` goes to; a close ends its notification's entry, a new server or a
    /// lost bus every entry.
    private static func channels(
        for event: NotificationEvent, in state: inout State
    ) -> [@Sendable (NotificationChannelItem) -> Void] {
        let posted: PostedID? = switch event {
        case .closed(let id, _, let server), .actionInvoked(let id, _, let server), .activationToken(let id, _, let server),
            .replied(let id, _, let server):
            PostedID(server: server, id: id)
        case .serverChanged, .disconnected:
            nil
        }
        guard let posted else {
            state.poster.removeAll()
            return Array(state.channels.values)
        }
        let poster = state.poster[posted]
        if case .closed = event { state.poster[posted] = nil }
        guard let poster, let handler = state.channels[poster] else { return Array(state.channels.values) }
        return [handler]
    }

    /// Hands the outcome of a post to the channel that made it, and remembers the notification
    /// as that channel's.
    private func answer(_ channel: NotificationChannel, tag: UInt64, _ outcome: Result<NotificationPosting, NotificationsError>) {
        let (handler, item) = state.withLock { state in
            if case .success(let posting) = outcome {
                if state.poster.count >= Self.posterMemory { state.poster.removeAll() }
                state.poster[PostedID(server: posting.server, id: posting.id)] = channel.id
            }
            return (state.channels[channel.id], state.item(.posted(tag: tag, outcome)))
        }
        handler?(item)
    }

    /// Called on the connection's executor for every event of the subscription, in order.
    private func receive(_ event: DBusSignalEvent) {
        switch event {
        case .signal(let message):
            if let parsed = NotificationEvent(signal: message) { publish(parsed) }
        case .ownerChanged(_, let oldOwner, let newOwner):
            state.withLock { state in
                state.owner = newOwner
                state.ownerChangeSeen = true
            }
            publish(.serverChanged(oldOwner: oldOwner, newOwner: newOwner))
        case .disconnected:
            state.withLock { state in
                state.link = nil
                state.owner = nil
                state.ownerChangeSeen = false
            }
            publish(.disconnected)
        }
    }

    // MARK: - Connection

    /// Connects and subscribes now (every call does this when needed).
    @discardableResult
    public func connect() async throws(NotificationsError) -> DBusConnection {
        try await link().connection
    }

    private func link() async throws(NotificationsError) -> Link {
        enum Next { case ready(Link), wait(Task<Link, any Error>) }
        let next: Next = state.withLock { state in
            if let link = state.link, link.connection.isConnected { return .ready(link) }
            if let connecting = state.connecting { return .wait(connecting) }
            let connecting = Task { try await self.establish() }
            state.connecting = connecting
            return .wait(connecting)
        }
        switch next {
        case .ready(let link):
            return link
        case .wait(let task):
            do {
                return try await task.value
            } catch {
                throw NotificationsError.from(error)
            }
        }
    }

    private func establish() async throws -> Link {
        defer { state.withLock { $0.connecting = nil } }
        // Talking to the bus daemon itself gets at least 5 s, whatever the deadline chosen for
        // the notification server: a short server deadline must not fail the connection.
        let connection: DBusConnection
        if let shared {
            guard shared.isConnected else { throw DBusError.disconnected }
            connection = shared
        } else {
            connection = try await DBusConnection.connect(to: bus, timeout: max(callTimeout, Self.busTimeout))
        }
        let rule = DBusMatchRule(interface: NotificationsInterface.name, path: NotificationsInterface.path)
        let subscription = try await connection.subscribe(to: [rule], senderMustOwn: NotificationsInterface.busName) {
            [weak self] event in self?.receive(event)
        }
        let link = Link(connection: connection, subscription: subscription)
        state.withLock { state in
            state.link = link
            if !state.ownerChangeSeen { state.owner = subscription.initialOwner }
        }
        return link
    }

    /// Drops the connection; the next call makes a new one. A client sharing its owner's
    /// connection (`init(sharing:on:callTimeout:)`) only drops its subscription, and subscribes
    /// again at the next call.
    public func disconnect() async {
        let link = state.withLock { state in
            defer {
                state.link = nil
                state.ownerChangeSeen = false
            }
            return state.link
        }
        link?.subscription.cancel()
        // A shared connection is its owner's to close.
        if shared == nil { await link?.connection.close() }
    }

    // MARK: - Methods

    private func call(_ member: NotificationsSpec.Method, _ body: [DBusValue] = []) async throws(NotificationsError) -> DBusMessage {
        let connection = try await link().connection
        do {
            let message = try DBusMessage.methodCall(
                destination: NotificationsInterface.busName, path: NotificationsInterface.path,
                interface: NotificationsInterface.name, member: member.rawValue, body: body)
            return try await connection.call(message, timeout: callTimeout)
        } catch {
            throw NotificationsError.from(error)
        }
    }

    /// Shows (or, with `replacesID`, updates) a notification.
    ///
    /// - Returns: the id the server assigned and the server instance that assigned it.
    /// - Throws: ``NotificationsError`` before sending for a field that cannot be sent or is
    ///   over ``limits``; ``NotificationsError/noServer(_:)`` when nothing serves the name.
    public func notify(_ request: NotifyRequest) async throws(NotificationsError) -> NotificationPosting {
        let arguments = try request.arguments(limits: limits)
        return try Self.posting(from: await call(.notify, arguments)).get()
    }

    /// Shows (or updates) a notification without waiting: the reply comes to `channel` as
    /// ``NotificationChannelItem/Kind/posted(tag:_:)``, after every signal received before it
    /// and before every signal received after it. A request that cannot be sent, or a bus that
    /// cannot be reached, is answered on the channel too (then off the connection's executor).
    package func post(_ request: NotifyRequest, tag: UInt64, on channel: NotificationChannel) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: NotificationsInterface.busName, path: NotificationsInterface.path,
                interface: NotificationsInterface.name, member: NotificationsSpec.Method.notify.rawValue,
                body: try request.arguments(limits: limits))
        } catch {
            return answer(channel, tag: tag, .failure(NotificationsError.from(error)))
        }
        let send: @Sendable (DBusConnection) -> Void = { [self] connection in
            connection.startCall(message, timeout: callTimeout) { [self] result in
                answer(channel, tag: tag, result.mapError { NotificationsError.from($0) }.flatMap(Self.posting(from:)))
            }
        }
        if let link = state.withLock({ $0.link }), link.connection.isConnected { return send(link.connection) }
        Task {
            do throws(NotificationsError) {
                send(try await link().connection)
            } catch {
                answer(channel, tag: tag, .failure(error))
            }
        }
    }

    /// The posting a `Notify` reply tells.
    private static func posting(from reply: DBusMessage) -> Result<NotificationPosting, NotificationsError> {
        guard let id = try? NotificationsSpec.NotifyReply(reply.body).id, let server = reply.sender else {
            return .failure(.protocolViolation("Notify replied with signature \(reply.bodySignature)"))
        }
        return .success(NotificationPosting(id: id, server: server))
    }

    /// Asks the server to close notification `id` (it answers with `NotificationClosed(id, 3)`
    /// when the id is live). Servers differ for an unknown id: some reply nothing, some with
    /// an error; both are reported as they come.
    public func closeNotification(id: UInt32) async throws(NotificationsError) {
        _ = try await call(.closeNotification, [.uint32(id)])
    }

    /// How many `CloseNotification` calls of one ``closeNotifications(ids:)`` are on their way
    /// at once, at most.
    public static let closeWindow = 64

    /// Asks the server to close each of `ids`, as ``closeNotification(id:)`` does, without
    /// waiting for one reply before sending the next call: up to ``closeWindow`` calls are on
    /// their way at once, so clearing a long list takes a few round trips, not one per
    /// notification.
    ///
    /// - Returns: once every call has been answered, the ids whose close failed, with why
    ///   (an id that closed meanwhile is answered with an error by some servers); every id
    ///   with the same error when the bus cannot be reached.
    public func closeNotifications(ids: [UInt32]) async -> [(id: UInt32, error: NotificationsError)] {
        guard !ids.isEmpty else { return [] }
        let connection: DBusConnection
        do {
            connection = try await link().connection
        } catch {
            return ids.map { ($0, error) }
        }
        let batch = CloseBatch(ids: ids, window: Self.closeWindow)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            batch.start(on: connection, timeout: callTimeout) { continuation.resume() }
        }
        return batch.failures
    }

    /// The server's capabilities, in the server's order.
    public func capabilities() async throws(NotificationsError) -> [NotificationCapability] {
        try await capabilityAnswer().capabilities
    }

    /// The server's capabilities, in the server's order, with the unique name of the server
    /// that answered: the name may have changed owner while the call was on its way, and what
    /// one server can show says nothing of the next.
    package func capabilityAnswer() async throws(NotificationsError) -> (capabilities: [NotificationCapability], server: String?) {
        let reply = try await call(.getCapabilities)
        guard let names = try? NotificationsSpec.GetCapabilitiesReply(reply.body).capabilities else {
            throw .protocolViolation("GetCapabilities replied with signature \(reply.bodySignature)")
        }
        return (names.map(NotificationCapability.init(rawValue:)), reply.sender)
    }

    /// The server's name, vendor, version and spec version.
    public func serverInformation() async throws(NotificationsError) -> NotificationServerInformation {
        let reply = try await call(.getServerInformation)
        guard let fields = try? NotificationsSpec.GetServerInformationReply(reply.body) else {
            throw .protocolViolation("GetServerInformation replied with signature \(reply.bodySignature)")
        }
        return NotificationServerInformation(name: fields.name, vendor: fields.vendor, version: fields.version, specVersion: fields.specVersion)
    }

    /// Whether a server owns the name now or the bus can start one.
    public func isServerAvailable() async throws(NotificationsError) -> Bool {
        let connection = try await link().connection
        if serverOwner != nil { return true }
        do {
            return try await connection.listActivatableNames().contains(NotificationsInterface.busName)
        } catch {
            throw NotificationsError.from(error)
        }
    }
}
