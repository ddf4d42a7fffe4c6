import DesktopNotificationsSupport
import Foundation

/// One JSON file of the center's persistent state, `<folder>/<name>.json`, written so that a
/// crash or a power loss never leaves it half-written, and read so that a damaged file is set
/// aside instead of trusted.
///
/// The folder is `$XDG_STATE_HOME/<app-id>/`; the caller resolves it. Beside the file live
/// `<name>.lock`, the lock that lets one writer at a time in, and, after a damaged file was
/// found, `<name>.corrupt-<UTC timestamp>.json`, kept for a person to inspect.
///
/// ## One writer at a time
///
/// ``save(_:)``, ``update(_:)`` and ``load()`` hold an exclusive `flock` on `<name>.lock` for
/// as long as they take, so writers in any number of threads and processes take turns. A
/// center writes through ``update(_:)``, which reads the file and writes its change within one
/// hold of the lock, so that two processes of one app (two `notify push` at once) merge their
/// changes instead of the last one's view replacing the other's. ``claim()`` takes the same
/// lock and keeps it for the life of this object; a second claim fails at once with
/// ``StateStoreError/claimedElsewhere(lockPath:)``, and writers that have not claimed the file
/// wait for the claim to end.
///
/// The folder is private (``PrivateStorage``): made 0700, and refused when another user owns it.
package final class StateFile<Value: Codable & Sendable>: Sendable {
    /// What ``load()`` found.
    package enum LoadResult: Sendable {
        /// There is no file yet.
        case fresh
        /// The file held this value.
        case loaded(Value)
        /// The file could not be trusted; it was renamed to `movedTo`, and the state starts fresh.
        case setAside(reason: StateFileSetAsideReason, movedTo: URL)
    }

    /// The folder that holds the file.
    let folder: URL
    /// The file's name without `.json`.
    let name: String
    /// The newest format this code writes and reads. Files of a newer one are set aside.
    let formatVersion: Int

    private let claimedLock = Locked<StateFileLock?>(nil)

    /// - Parameters:
    ///   - folder: The folder for the file, created with mode 0700 at the first save.
    ///   - name: The file's name without `.json`: not empty, no `/`, not starting with `.`.
    ///   - formatVersion: The format version of `Value` that this code writes.
    package init(folder: URL, name: String, formatVersion: Int = 1) {
        precondition(
            !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0"),
            "A state file name must be a plain file name, not '\(name)'"
        )
        self.folder = folder
        self.name = name
        self.formatVersion = formatVersion
    }

    /// The state file, `<folder>/<name>.json`.
    package var url: URL { folder.appendingPathComponent("\(name).json") }

    /// The lock file, `<folder>/<name>.lock`.
    var lockURL: URL { folder.appendingPathComponent("\(name).lock") }

    // MARK: - Claiming

    /// Takes the lock for the life of this object, so that no other center writes this state.
    ///
    /// Claiming again from the same object does nothing.
    ///
    /// - Throws: ``StateStoreError/claimedElsewhere(lockPath:)`` at once when another holder,
    ///   in this process or another, has the lock.
    func claim() throws {
        try claimedLock.withLock { claimed in
            guard claimed == nil else { return }
            try PrivateStorage.prepareFolder(folder.path)
            claimed = try StateFileLock.acquire(at: lockURL.path, waiting: false)
        }
    }

    /// Runs `body` while holding the lock: the claimed one, or one taken for this call.
    func withWriterLock<Result: Sendable>(_ body: () throws -> Result) throws -> Result {
        try claimedLock.withLock { claimed in
            if claimed != nil { return try body() }
            try PrivateStorage.prepareFolder(folder.path)
            let lock = try StateFileLock.acquire(at: lockURL.path, waiting: true)
            return try withExtendedLifetime(lock) { try body() }
        }
    }

    // MARK: - Loading

    /// Reads the state, at start-up.
    ///
    /// Removes temporary files that a crashed save left behind. A file that is empty, not
    /// decodable (truncated, say), or from a newer format is renamed aside and reported; it is
    /// never trusted. So is anything else in its place (a folder, a FIFO), which no save
    /// could replace.
    ///
    /// - Throws: ``StateStoreError`` when the file is there but cannot be read (the lock
    ///   cannot be opened, a read fails, the folder is another user's): not the same as no
    ///   file, and nothing is changed.
    package func load() throws -> LoadResult {
        guard try PrivateStorage.checkFolder(folder.path) else { return .fresh }
        return try withWriterLock { try readHoldingLock() }
    }

    /// Reads the file and replaces it with what `change` makes of what was read, holding the
    /// lock from the read to the end of the write, so that no other writer's save falls in
    /// between and is lost.
    ///
    /// - Throws: ``StateStoreError`` when the file cannot be read, as ``load()`` does; then
    ///   `change` is not called and nothing is written.
    package func update(_ change: (LoadResult) -> Value) throws {
        try withWriterLock {
            let current = try readHoldingLock()
            try makeWrite(of: try encode(change(current))).perform()
        }
    }

    /// ``update(_:)`` for a writer that knows the stamp of its own last save: when the file
    /// still has that stamp (no other writer saved since), it is not read again and `change`
    /// gets `nil`, meaning "what you wrote last"; otherwise `change` gets what was read, as in
    /// ``update(_:)``. Returns the stamp of the file just written (`nil` when it cannot be
    /// read, and the next update reads the file).
    ///
    /// - Throws: ``StateStoreError`` when the file cannot be read or written; then nothing is
    ///   written.
    package func update(unchangedSince stamp: StateFileStamp?, _ change: (LoadResult?) -> Value) throws -> StateFileStamp? {
        try withWriterLock {
            let unchanged = stamp != nil && StateFileStamp.of(url.path) == stamp
            let current = unchanged ? nil : try readHoldingLock()
            try makeWrite(of: try encode(change(current))).perform()
            return StateFileStamp.of(url.path)
        }
    }

    /// What ``load()`` reads; the caller holds the writer lock.
    private func readHoldingLock() throws -> LoadResult {
        try removeLeftoverTemporaries()
        let data: Data
        switch try StateFileSystem.contents(of: url.path) {
        case .absent: return .fresh
        case .notARegularFile: return .setAside(reason: .notARegularFile, movedTo: try setAside())
        case .regular(let bytes): data = bytes
        }
        switch StateFileEnvelope<Value>.decode(data, understanding: formatVersion) {
        case .success(let value):
            return .loaded(value)
        case .failure(let reason):
            return .setAside(reason: reason, movedTo: try setAside())
        }
    }

    /// Moves the unusable file to `<name>.corrupt-<UTC timestamp>.json`, never over another.
    private func setAside() throws -> URL {
        let timestamp = Date().formatted(
            Date.ISO8601FormatStyle(
                dateSeparator: .omitted,
                dateTimeSeparator: .standard,
                timeSeparator: .omitted,
                includingFractionalSeconds: true
            )
        )
        var destination = folder.appendingPathComponent("\(name).corrupt-\(timestamp).json")
        var attempt = 1
        while try StateFileSystem.exists(destination.path) {
            attempt += 1
            destination = folder.appendingPathComponent("\(name).corrupt-\(timestamp)-\(attempt).json")
        }
        try StateFileSystem.rename(url.path, to: destination.path, operation: .setAside)
        try StateFileSystem.syncFolder(folder.path)
        return destination
    }

    private func removeLeftoverTemporaries() throws {
        let leftovers = try StateFileSystem.names(inFolder: folder.path).filter { $0.hasPrefix(temporaryPrefix) }
        guard !leftovers.isEmpty else { return }
        for leftover in leftovers {
            try StateFileSystem.remove(folder.appendingPathComponent(leftover).path)
        }
        try StateFileSystem.syncFolder(folder.path)
    }

    // MARK: - Saving

    /// Replaces the state with `value`, crash-safely: see ``StateFileWrite``.
    package func save(_ value: Value) throws {
        let data = try encode(value)
        try withWriterLock {
            try makeWrite(of: data).perform()
        }
    }

    /// The file's bytes for `value`.
    func encode(_ value: Value) throws -> Data {
        do {
            return try StateFileEnvelope.encode(value, formatVersion: formatVersion, savedAt: Date())
        } catch {
            throw StateStoreError.encodingFailed(path: url.path, reason: String(describing: error))
        }
    }

    /// A save of `data`, not yet started; the caller holds the writer lock.
    func makeWrite(of data: Data) -> StateFileWrite {
        StateFileWrite(
            data: data,
            targetPath: url.path,
            folderPath: folder.path,
            temporaryPath: folder.appendingPathComponent("\(temporaryPrefix)\(UUID().uuidString)").path
        )
    }

    /// Temporary files are hidden, named `.<name>.json.tmp-<UUID>`.
    private var temporaryPrefix: String { ".\(name).json.tmp-" }
}

extension StateFile.LoadResult: Equatable where Value: Equatable {}
