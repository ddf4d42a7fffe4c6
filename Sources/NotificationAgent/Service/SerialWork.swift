import DBus

/// Runs work items one after the other, in the order they were handed over: the order of an
/// app's calls as the agent's connection read them.
///
/// The items run on the D-Bus I/O thread (``DBus/DBusLoopExecutor``): a call read there is
/// taken right after it is read, on the same thread, and its reply and its `Notify` are
/// written from there, with no thread switch between the bus and the app's engine.
final class SerialWork: Sendable {
    typealias Item = @Sendable () async -> Void

    private let continuation: AsyncStream<Item>.Continuation

    init() {
        let (items, continuation) = AsyncStream.makeStream(of: Item.self)
        self.continuation = continuation
        Task(executorPreference: DBusLoopExecutor.shared) {
            for await item in items { await item() }
        }
    }

    deinit {
        continuation.finish()
    }

    /// Runs `item` after every item handed over before it.
    func enqueue(_ item: @escaping Item) {
        continuation.yield(item)
    }
}
