import DesktopNotificationsSupport

/// When an engine writes its state file after a change: at once when nothing was written
/// within ``interval`` (or the longer spacing of ``spacingFactor``), so a process that adds one
/// request and exits keeps it; else once at the end of that interval for the whole burst.
/// The engine core (``EngineCore``, in front of every service) and the agent's record of
/// each app save this way; each keeps one value of it under its own
/// isolation. Engines that share a process's time (the agent's) share a ``SaveLoad``, and a
/// write starts at once only when the group's last write is far enough back too.
package struct SaveCoalescing: Sendable {
    /// How long a burst of changes is gathered into one write, at least.
    package static let interval: Duration = .milliseconds(20)
    /// A write waits at least this many times as long as the last write took, times the
    /// engines of its ``SaveLoad`` with a write waiting (when that is longer than
    /// ``interval``), and starts at once only this many times the group's last write after
    /// that one started: a large state (thousands of requests) is read, merged and written
    /// again whole, so in a burst of changes the saves of all the agent's engines (one per
    /// app) take about a quarter of its time instead of all of it, and a save lands within a
    /// few times its own cost after the change.
    package static let spacingFactor = 4

    /// The group of engines this engine's saves share the process's time with.
    package let load: SaveLoad

    /// What to do about a change.
    package enum Decision: Equatable {
        /// Write now.
        case writeNow
        /// Write once this long from now (``takeWaitingWrite(at:)`` then).
        case writeAfter(Duration)
        /// A write is waiting already, and will take this change.
        case waiting
    }

    /// Whether a write waits for the end of its burst.
    package private(set) var writeWaiting = false
    /// When the last write started.
    private var lastWrite: ContinuousClock.Instant?
    /// How long the last write took, which spaces the next.
    private var lastWriteDuration: Duration = .zero

    /// The timing of an engine whose saves share `load` (by default, a load of its own).
    package init(load: SaveLoad = SaveLoad()) {
        self.load = load
    }

    /// Decides about a change made at `now`; a ``Decision/writeAfter(_:)`` counts as waiting
    /// until the write starts.
    package mutating func change(at now: ContinuousClock.Instant) -> Decision {
        guard !writeWaiting else { return .waiting }
        let spacing = max(Self.interval, lastWriteDuration * (Self.spacingFactor * (load.waiting + 1)))
        let quiet = lastWrite.map { now - $0 >= spacing } ?? true
        if quiet && load.allowsWrite(at: now) { return .writeNow }
        writeWaiting = true
        load.writeWaits()
        return .writeAfter(spacing)
    }

    /// A write starts at `now` (it takes a waiting one along).
    package mutating func writeStarted(at now: ContinuousClock.Instant) {
        if writeWaiting { load.waitingWriteStarted() }
        writeWaiting = false
        lastWrite = now
        load.writeStarted(at: now)
    }

    /// Starts the waiting write at `now`, if one waits: `true` when the caller must write.
    package mutating func takeWaitingWrite(at now: ContinuousClock.Instant) -> Bool {
        guard writeWaiting else { return false }
        writeStarted(at: now)
        return true
    }

    /// The write that started last (``writeStarted(at:)``) ended at `now`: its duration counts
    /// from its start, the wait for a thread and for the file's turn included.
    package mutating func writeEnded(at now: ContinuousClock.Instant) {
        writeEnded(after: lastWrite.map { now - $0 } ?? .zero)
    }

    /// The write that started last took `duration`.
    package mutating func writeEnded(after duration: Duration) {
        lastWriteDuration = duration
        load.writeEnded(after: duration)
    }

    /// Carries out `decision`: `write` now, or `flush` in a task of its own once the interval
    /// has passed (it writes only if the write still waits then), or nothing.
    package static func carryOut(_ decision: Decision, write: () -> Void, flush: @escaping @Sendable () async -> Void) {
        switch decision {
        case .writeNow:
            write()
        case .writeAfter(let spacing):
            Task {
                try? await Task.sleep(for: spacing)
                await flush()
            }
        case .waiting:
            break
        }
    }
}
