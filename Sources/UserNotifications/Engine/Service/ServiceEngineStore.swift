import DesktopNotificationsSupport
import Foundation

/// Where a ``ServiceEngine`` saves its lists across launches: the app's state file, the
/// in-process engine's `notifications.json` (``EngineState``), written crash-safe and merged
/// with what other processes of the app wrote, and what the engine knows of its last read and
/// write. Each part has its own lock; the baseline's lock orders the writes.
final class ServiceEngineStore: Sendable {
    /// The state file, `nil` when the center keeps no state.
    let file: StateFile<EngineState>?
    /// The state as last read from the file or written there, which each save merges against;
    /// `nil` until the file was read, and nothing is written before. Its lock orders saves.
    let baseline = Locked<EngineState?>(nil)
    /// The stamp of the file as the engine last wrote it, when that held the engine's state
    /// alone (``EngineState/write(_:to:since:unchangedSince:)``); kept under ``baseline``'s lock.
    let stamp = Locked<StateFileStamp?>(nil)
    /// Why the state could not be kept at the last attempt; `nil` after a success.
    let problem = Locked<(any Error)?>(nil)
    /// When the next write happens.
    let timing = Locked(SaveCoalescing())

    /// The store in `stateDirectory` (none kept when `nil`; a folder that cannot be named is
    /// logged, kept as the problem ``ServiceEngine/writeStateNow()`` reports, and none is
    /// kept).
    init(stateDirectory: Result<URL, InvalidApplicationIdentifierError>?) {
        switch stateDirectory {
        case .success(let url):
            file = EngineState.file(in: url)
        case .failure(let error):
            SubsystemLog.center.logger.error("the notification state is not kept", metadata: ["error": SubsystemLog.describe(error)])
            file = nil
            problem.withLock { $0 = error }
        case nil:
            file = nil
        }
    }
}
