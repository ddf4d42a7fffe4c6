import Foundation

/// Runs a state file's blocking work (the writer lock's `flock`, the read, the merge, the
/// write and its `fsync`s) on a thread of its own, for an engine whose actor must not wait
/// for it: the agent's engines run on the D-Bus I/O thread that serves every app
/// (``EngineCore/savesOffActor``), where one app's save stuck on a slow disk or a lock
/// held on its file would stall every other app's calls.
///
/// A plain thread, not a task of the global executor: a save that waits on a lock would hold
/// one of the executor's few threads (as many as the cores) as long as it waits. The agent
/// writes its record of each app (`agent.json`) the same way.
package enum StateFileThread {
    /// Runs `work` on a new thread and returns its result once it is done.
    package static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
