/// Runs work items one after the other, in the order they were handed over: the order of an
/// app's calls as the agent's connection read them.
final class SerialWork: Sendable {
    typealias Item = @Sendable () async -> Void

    private let continuation: AsyncStream<Item>.Continuation

    init() {
        let (items, continuation) = AsyncStream.makeStream(of: Item.self)
        self.continuation = continuation
        Task {
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
