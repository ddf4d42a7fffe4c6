import DesktopNotificationsSupport
import FreedesktopNotifications
import Foundation

// What the engines that save an ``EngineState`` share to read and write it.
extension EngineState {
    /// The state in a load's result, reporting (logging) a file that was set aside, and
    /// without the entries that cannot be honoured (``leavingOutWhatCannotBeHonoured()``).
    static func state(from result: StateFile<EngineState>.LoadResult) -> EngineState {
        switch result {
        case .loaded(let state):
            return state.leavingOutWhatCannotBeHonoured()
        case .fresh:
            return EngineState()
        case .setAside(let reason, let movedTo):
            SubsystemLog.center.logger.error(
                "the saved state could not be trusted; it was set aside",
                metadata: ["reason": "\(reason)", "movedTo": "\(TerminalText.singleLine(movedTo.path))"])
            return EngineState()
        }
    }

    /// One entry of the saved state; an entry that cannot be written (its `userInfo` was
    /// checked when it was added, so this is not expected) is left out and logged.
    static func entry<Entry>(of identifier: String, _ make: () throws -> Entry) -> Entry? {
        do {
            return try make()
        } catch {
            SubsystemLog.center.logger.error(
                "a notification was left out of the saved state",
                metadata: ["identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
            return nil
        }
    }

    /// Writes `ours`, an engine's state, to `store`, merged under the file's lock with what
    /// other processes of the app wrote since `baseline`, the state as the engine last read or
    /// wrote it (``merged(over:since:)``). A file that still has `stamp`, the stamp of the
    /// engine's last save when that held its state alone, is not read again: nobody else
    /// wrote since, so `ours` replaces it as it is. So does a file read that holds the
    /// baseline's entries (the first save after the engine read the file): there is nothing
    /// of anyone else's to merge.
    ///
    /// - Returns: The stamp to pass next time: the new file's when it holds `ours` alone, else
    ///   `nil`.
    /// - Throws: ``StateStoreError`` when the file cannot be read or written; nothing is
    ///   written then.
    static func write(
        _ ours: EngineState, to store: StateFile<EngineState>, since baseline: EngineState, unchangedSince stamp: StateFileStamp?
    ) throws -> StateFileStamp? {
        // Whether the file will hold `ours` alone: it held the baseline, and nothing else.
        var holdsOursAlone = true
        let written = try store.update(unchangedSince: stamp) { stored in
            guard let stored else { return ours }
            let state = state(from: stored)
            holdsOursAlone = state.hasSameEntries(as: baseline)
            return holdsOursAlone ? ours : ours.merged(over: state, since: baseline)
        }
        return holdsOursAlone ? written : nil
    }
}
