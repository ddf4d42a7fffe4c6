import Foundation
@testable import UserNotifications

/// Runs blocking file work (a `flock` that waits, `fsync`, reads) on a Dispatch thread instead
/// of the cooperative pool. On a two-core machine the pool has two threads: a test that blocks
/// them stalls every other test's tasks, and their deadlines pass while they wait.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// The state a center saved in `folder`, or `nil` while there is none that loads.
func savedState(in folder: URL) async -> EngineState? {
    let loaded = try? await offThePool { try StateFile<EngineState>(folder: folder, name: "notifications").load() }
    guard case .loaded(let state)? = loaded else { return nil }
    return state
}
