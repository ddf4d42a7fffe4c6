import DBus
import DesktopNotificationsSupport

/// Packs an ``AgentEngine``'s adds of requests with a trigger into `AddRequests` calls, as
/// Nagle's algorithm packs a socket's writes: an add made while none is on its way leaves at
/// once as `Add`; the adds made while one is on its way wait, each in the call order, and leave
/// together as one `AddRequests` when an answer comes back. An app that adds one request at a
/// time (each `add` awaited) sends one `Add` per request; an app that adds many at once sends few calls, so the agent and the bus daemon
/// handle one message for many requests.
///
/// Order: a waiting batch holds one place in the ``AgentOutbox``. An add joins the newest
/// batch only while no other call took a place after it; otherwise it opens a batch in a new
/// place, so every call still leaves in the order it was made. Each add gets its own answer:
/// the agent answers each request of an `AddRequests` on its own.
final class AgentAddPacker: Sendable {
    /// One add: its request's record, the record's size (``AgentPayload/size(of:)``), and
    /// who waits for its answer.
    struct Item: Sendable {
        let record: AgentPayload.Record
        let bytes: Int
        let done: @Sendable (Result<Void, any Error>) -> Void
    }

    /// Adds that leave in one call, in one place of the outbox.
    struct Batch: Sendable {
        let place: AgentOutbox.Place
        var items: [Item]
        var bytes: Int
    }

    private struct State {
        /// The calls of this packer sent and not answered yet.
        var inFlight = 0
        /// The batches that wait for an answer, oldest first; only the last can grow.
        var waiting: [Batch] = []
        /// The calls sent, and the requests in them (for tests and the bench).
        var calls = 0
        var requests = 0
    }

    /// Sends a batch in its place; calls `answered` (on any thread) once its answer came,
    /// after each item's `done` was called.
    typealias Sender = @Sendable (Batch, _ answered: @escaping @Sendable () -> Void) -> Void

    private let outbox: AgentOutbox
    private let state = Locked(State())
    private let sender = Locked<Sender?>(nil)

    init(outbox: AgentOutbox) {
        self.outbox = outbox
    }

    /// Sets how batches are sent (once, by the engine, which cannot be named before its
    /// `init` ends).
    func sendThrough(_ send: @escaping Sender) {
        sender.withLock { $0 = send }
    }

    /// Adds the request in `record`, of `bytes` (``AgentPayload/size(of:)``, measured as it was
    /// encoded); `done` is called with the agent's answer for it.
    func add(_ record: AgentPayload.Record, bytes: Int, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let item = Item(record: record, bytes: bytes, done: done)
        let now = state.withLock { state -> Batch? in
            state.requests += 1
            guard state.inFlight > 0 || !state.waiting.isEmpty else {
                state.inFlight += 1
                state.calls += 1
                return Batch(place: outbox.reserve(), items: [item], bytes: item.bytes)
            }
            // The newest batch grows in place: a copy of it would copy its items at each add.
            if let last = state.waiting.indices.last, outbox.isNewest(state.waiting[last].place),
                state.waiting[last].items.count < AgentInterface.maximumBatchRequests,
                state.waiting[last].bytes + item.bytes <= AgentInterface.maximumBatchBytes
            {
                state.waiting[last].items.append(item)
                state.waiting[last].bytes += item.bytes
            } else {
                state.waiting.append(Batch(place: outbox.reserve(), items: [item], bytes: item.bytes))
            }
            return nil
        }
        if let now { send(now) }
    }

    private func send(_ batch: Batch) {
        guard let send = sender.withLock({ $0 }) else {
            outbox.fill(batch.place) {}
            for item in batch.items { item.done(.failure(NotificationAgentError.failed("the center's agent engine is gone"))) }
            return answered()
        }
        send(batch) { [self] in answered() }
    }

    /// How many calls the packer sent, and how many requests they carried.
    var counts: (calls: Int, requests: Int) {
        state.withLock { ($0.calls, $0.requests) }
    }

    /// An answer came: the batches that waited for it leave, each as one call.
    private func answered() {
        let batches = state.withLock { state in
            state.inFlight -= 1
            defer { state.waiting = [] }
            state.inFlight += state.waiting.count
            state.calls += state.waiting.count
            return state.waiting
        }
        for batch in batches { send(batch) }
    }
}
