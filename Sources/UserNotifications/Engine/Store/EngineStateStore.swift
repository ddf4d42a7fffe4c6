import DesktopNotificationsSupport
import Foundation

/// An engine's state file (``EngineState``) and the bookkeeping of its saves, one for every
/// engine: the state last read or written, which each save merges against (nothing is written
/// before the file was read once, so a file that could not be read is never replaced); the
/// stamp of the engine's last write when it held the engine's state alone; the last
/// ``problem``; when the next save is written (``SaveCoalescing``).
///
/// The engine gives a snapshot and takes in what the file holds (its adopt closure); the store
/// reads, merges, writes and records. A read taken in and a write each hold the store's turn,
/// so the last write holds the newest snapshot. The closures run inside the turn and must not
/// start a save.
final class EngineStateStore: Sendable {
    /// The state file, `nil` when the center keeps no state.
    let file: StateFile<EngineState>?
    /// The group whose saves this store's are spaced with.
    let load: SaveLoad
    private let record: Locked<Record>
    /// Held through a read taken in and through a write: one at a time, in order.
    private let turn = Locked(())

    private struct Record: Sendable {
        var baseline: EngineState?
        var stamp: StateFileStamp?
        var problem: (any Error)?
        var timing: SaveCoalescing
    }

    /// The store of the file in `stateDirectory` (no state saved when `nil`; a folder that cannot be
    /// named is logged and kept as the ``problem``), whose saves share `load`.
    init(stateDirectory: Result<URL, InvalidApplicationIdentifierError>?, load: SaveLoad = SaveLoad()) {
        self.load = load
        var problem: (any Error)?
        switch stateDirectory {
        case .success(let url):
            file = EngineState.file(in: url)
        case .failure(let error):
            file = nil
            problem = error
        case nil:
            file = nil
        }
        record = Locked(Record(problem: problem, timing: SaveCoalescing(load: load)))
        if let problem { Self.report(problem) }
    }

    /// Why the state could not be read, written or kept at the last attempt; `nil` after a success.
    var problem: (any Error)? { record.withLock { $0.problem } }

    /// Whether the file has been read: until then, nothing is written.
    var hasRead: Bool { record.withLock { $0.baseline != nil } }

    // MARK: - Reading

    /// Reads the file; `nil` when no state is kept or it was read already. Takes no turn: an
    /// engine whose thread must not wait reads on another and hands it to ``take(_:adopt:)``.
    func read() -> Result<EngineState, any Error>? {
        guard let file, !hasRead else { return nil }
        return Result { EngineState.state(from: try file.load()) }
    }

    /// Takes `read` in: `adopt` gets what the file holds, unless a read was taken in first. A
    /// failure is logged and kept as the ``problem``, and the next save reads again. Returns
    /// what `adopt` returned, `nil` when it did not run.
    func take<Adopted>(_ read: Result<EngineState, any Error>?, adopt: (EngineState) -> Adopted) -> Adopted? {
        guard let read else { return nil }
        return turn.withLock { _ in
            guard !hasRead else { return nil }
            switch read {
            case .success(let state):
                record.withLock { record in
                    record.baseline = state
                    record.problem = nil
                }
                return adopt(state)
            case .failure(let error):
                record.withLock { $0.problem = error }
                Self.report(error)
                return nil
            }
        }
    }

    /// Reads the file, when it has not been read, and takes it in (``take(_:adopt:)``).
    func restore<Adopted>(adopt: (EngineState) -> Adopted) -> Adopted? {
        take(read(), adopt: adopt)
    }

    // MARK: - Writing

    /// Writes `snapshot()`, taken in the turn, merged under the file's lock with what other
    /// processes of the app wrote since the last read or write; records the new baseline and
    /// stamp, or the problem (logged). Nothing is written while the file has not been read.
    func write(_ snapshot: () -> EngineState) {
        guard let file else { return }
        turn.withLock { _ in
            guard let (baseline, stamp) = record.withLock({ record in record.baseline.map { ($0, record.stamp) } }) else { return }
            let ours = snapshot()
            let written = Result { try EngineState.write(ours, to: file, since: baseline, unchangedSince: stamp) }
            record.withLock { record in
                record.timing.writeEnded(at: ContinuousClock.now)
                switch written {
                case .success(let stamp):
                    record.stamp = stamp
                    record.baseline = ours
                    record.problem = nil
                case .failure(let error):
                    record.stamp = nil
                    record.problem = error
                }
            }
            if case .failure(let error) = written { Self.report(error) }
        }
    }

    private static func report(_ error: any Error) {
        SubsystemLog.center.logger.error("the notification state is not saved", metadata: ["error": SubsystemLog.describe(error)])
    }

    // MARK: - Timing

    /// What to do about a change made now; nothing when no state is kept.
    func change() -> SaveCoalescing.Decision {
        guard file != nil else { return .waiting }
        return record.withLock { $0.timing.change(at: ContinuousClock.now) }
    }

    /// A write starts now (it takes a waiting one along).
    func writeStarted() {
        record.withLock { $0.timing.writeStarted(at: ContinuousClock.now) }
    }

    /// Starts the write waiting for its burst to end: `true` when one waited and must be written.
    func takeWaitingWrite() -> Bool {
        record.withLock { $0.timing.takeWaitingWrite(at: ContinuousClock.now) }
    }

    /// Whether a write waits for the end of its burst.
    var writeWaiting: Bool { record.withLock { $0.timing.writeWaiting } }
}
