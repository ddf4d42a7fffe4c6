import DesktopNotificationsSupport
import Foundation

/// What one harness server owns: the processes it started and its temporary folder (home,
/// configuration, runtime folder). They are stopped by PID, the newest first, and the folder
/// is removed: when the server stops, when its start fails, and at the latest when it is freed.
final class HarnessProcesses: Sendable {
    /// The server's temporary folder.
    let folder: URL
    private let started = Locked<[ChildProcess]>([])

    /// Makes a new private folder named after `prefix`.
    init(prefix: String) throws {
        folder = try HarnessTemporaryDirectory.make(prefix: prefix)
    }

    /// Keeps `process`, to be stopped with the others; returns it.
    func adopt(_ process: ChildProcess) -> ChildProcess {
        started.withLock { $0.append(process) }
        return process
    }

    /// Stops every process (`SIGTERM`, then `SIGKILL` after `grace`), the newest first, and
    /// removes the folder.
    func stop(grace: Duration = .zero) async {
        let processes = started.withLock { processes in
            defer { processes = [] }
            return processes
        }
        for process in processes.reversed() { _ = await process.stop(grace: grace) }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit {
        for process in started.withLock({ $0 }).reversed() { _ = process.send(SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}
