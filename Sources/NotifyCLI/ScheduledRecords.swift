import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// What a waiting `notify --in/--at/--every` process tells `notify pending` about itself.
///
/// Written once, before the wait begins, and never changed: the next delivery is computed
/// from ``schedule`` (the trigger's own next fire date) by whoever reads the record, so there is nothing to rewrite while the process
/// waits, and nothing that could bring back a record that `notify cancel` removed.
struct ScheduledRecord: Codable, Sendable, Equatable {
    /// The version of this layout; a record of another version is skipped as unreadable.
    static let currentFormat = 2

    /// ``currentFormat`` when written.
    var format: Int
    /// The id `notify cancel` takes: eight lowercase hexadecimal digits, also the file's name.
    var id: String
    /// The waiting process.
    var pid: Int32
    /// The notification's summary.
    var summary: String
    /// The application name it is shown for.
    var appName: String
    /// The `--id` name, if any.
    var identifier: String?
    /// When it was scheduled.
    var created: Date
    /// When it fires.
    var schedule: Schedule

    /// Whether the values are ones `notify` writes (a file may hold anything): a record with
    /// a time or a repeat out of the ranges the command line accepts is not read, since the
    /// arithmetic on it could overflow or never end.
    var isPlausible: Bool {
        format == Self.currentFormat && ScheduledRecords.isValidID(id) && pid > 0
            && Schedule.plausibleDates.contains(created) && schedule.isPlausible
    }
}

/// The records of the scheduled notifications that are waiting: one file per waiting process,
/// `ID.json`, in `$XDG_RUNTIME_DIR/notify/scheduled/` (or, without a runtime folder,
/// `scheduled/` in ``IdentifierStore/directory``).
///
/// The mechanism, and why:
///
/// - **Liveness is a lock, not a PID.** The waiting process holds an exclusive `flock` on its
///   record for its whole life. A lock is released by the kernel however the process ends
///   (even `SIGKILL`), so a record whose lock can be taken is stale: ``scan()`` removes it.
///   Readers only ever try a shared lock, so one reader never looks like a live process to
///   another. A PID alone could have been reused by an unrelated process.
/// - **Written atomically.** The record is written to `ID.tmp`, locked before anything is in
///   it, then linked to `ID.json` (which fails rather than replace a file) and the temporary
///   name removed: a reader never sees a half-written record, and a record is never unlocked
///   while its process lives.
/// - **Cancelling is removing the record, then `SIGTERM` to the process.** Removal is the
///   decision: a single-delivery process removes its own record when it fires, and whichever
///   of the two `unlink` calls succeeds has won, so a notification is either cancelled or
///   shown, never both. The signal wakes the process (it ends cleanly on `SIGTERM`, as on
///   Control-C, and stays silent when its record is gone). It goes only to the process that
///   the kernel's lock table (``LockTable``) shows holding the record's lock, and that the
///   record names: a record planted to name another process, locked by its planter, is left
///   alone. The signal goes through a pidfd opened before the lock is checked where the
///   system has them, so it cannot reach a process that reused the PID. A signal
///   needs no kernel resource per waiting process, which inotify (128 instances per user by
///   default) would.
/// - Records are immutable (see ``ScheduledRecord``); anything unreadable in the folder is
///   skipped, or removed when its lock is free. Nothing here traps on a bad file.
enum ScheduledRecords {
    /// Why the folder could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder of the records.
    static var directory: URL {
        let environment = ProcessInfo.processInfo.environment
        var isFolder: ObjCBool = false
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
           FileManager.default.fileExists(atPath: runtime, isDirectory: &isFolder), isFolder.boolValue
        {
            return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("notify/scheduled", isDirectory: true)
        }
        return IdentifierStore.directory.appendingPathComponent("scheduled", isDirectory: true)
    }

    /// Whether `id` is an id ``register(_:)`` gives: eight lowercase hexadecimal digits.
    static func isValidID(_ id: String) -> Bool {
        id.utf8.count == 8 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A temporary file left by a process that died while writing is removed after this long.
    static let abandonedTemporaryAge: TimeInterval = 60

    /// The largest record read; a bigger file is unreadable.
    static let maximumRecordSize = 1 << 20

    // MARK: - The waiting process's side

    /// A record written by this process, locked until ``remove()``.
    final class Registration: Sendable {
        /// The record's id.
        let id: String
        /// The record's path.
        let path: String
        private let lock: Locked<Int32?>

        fileprivate init(id: String, path: String, descriptor: Int32) {
            self.id = id
            self.path = path
            lock = Locked(descriptor)
        }

        deinit { remove() }

        /// Whether the record is still there, that is, not cancelled.
        var isPresent: Bool {
            var status = stat()
            return lstat(path, &status) == 0
        }

        /// Removes the record because the single delivery is starting; `false` when it was
        /// already removed, that is, cancelled just before.
        func claim() -> Bool {
            let claimed = unlink(path) == 0
            release()
            return claimed
        }

        /// Removes the record (if still there) and releases its lock. Calling it again does
        /// nothing.
        func remove() {
            let held = lock.withLock { $0 != nil }
            guard held else { return }
            unlink(path)
            release()
        }

        private func release() {
            lock.withLock { descriptor in
                if let open = descriptor { close(open) }
                descriptor = nil
            }
        }
    }

    /// Writes the record that `make` builds for a new id, and keeps it locked.
    ///
    /// Stale records are removed first.
    static func register(_ make: (String) -> ScheduledRecord) throws(Failure) -> Registration {
        let folder = directory
        try createFolder(folder)
        _ = try? scan()
        var lastError = "no free id"
        for _ in 0..<8 {
            let id = String(format: "%08x", UInt32.random(in: 0...UInt32.max))
            let temporary = folder.appendingPathComponent("\(id).tmp").path
            let path = folder.appendingPathComponent("\(id).json").path
            let data: Data
            do {
                data = try encoder.encode(make(id))
            } catch {
                throw Failure(description: "cannot encode the record: \(error)")
            }
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw Failure(description: "cannot create \(temporary): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, writeAll(descriptor, data) else {
                lastError = "cannot write \(temporary): \(String(cString: strerror(errno)))"
                unlink(temporary)
                close(descriptor)
                continue
            }
            // link() publishes the locked, complete file under its name, failing instead of
            // replacing a record that (against all odds) has the same id.
            if link(temporary, path) != 0 {
                let failure = errno
                if failure == EEXIST {
                    unlink(temporary)
                    close(descriptor)
                    continue
                }
                // A file system without hard links: rename, which the random id makes safe.
                guard rename(temporary, path) == 0 else {
                    lastError = "cannot create \(path): \(String(cString: strerror(errno)))"
                    unlink(temporary)
                    close(descriptor)
                    continue
                }
            } else {
                unlink(temporary)
            }
            return Registration(id: id, path: path, descriptor: descriptor)
        }
        throw Failure(description: lastError)
    }

    // MARK: - pending and cancel

    /// A file of the folder, as ``scan()`` found it.
    enum Entry: Sendable {
        /// The record of a process that is waiting.
        case live(ScheduledRecord)
        /// A file held by a live lock that is not a record `notify` can read, or whose lock
        /// is not held by the process it names; `reason` says which.
        case unreadable(name: String, reason: String)
    }

    /// The records of the processes still waiting, after removing stale ones. A missing
    /// folder has none.
    static func scan() throws(Failure) -> [Entry] {
        let folder = directory
        guard try checkFolder(folder) else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            if !FileManager.default.fileExists(atPath: folder.path) { return [] }
            throw Failure(description: "cannot read \(folder.path): \(error.localizedDescription)")
        }
        var entries: [Entry] = []
        for name in names.sorted() {
            let path = folder.appendingPathComponent(name).path
            if name.hasSuffix(".json") {
                switch inspect(path) {
                case .gone, .stale:
                    continue
                case .live(let descriptor):
                    let record = read(descriptor).flatMap { try? OutsideJSON.decode(ScheduledRecord.self, from: $0, with: decoder) }
                    defer { close(descriptor) }
                    guard let record, record.isPlausible, "\(record.id).json" == name else {
                        entries.append(.unreadable(name: name, reason: "not a record this notify can read"))
                        continue
                    }
                    guard LockTable.isLocked(descriptor, by: record.pid) else {
                        entries.append(.unreadable(name: name, reason: "its lock is not held by the process it names (\(record.pid))"))
                        continue
                    }
                    entries.append(.live(record))
                }
            } else if name.hasSuffix(".tmp") {
                removeAbandonedTemporary(path)
            }
        }
        return entries
    }

    /// What ``cancel(id:)`` did.
    enum Cancellation: Sendable, Equatable {
        /// The record was removed and its process told to stop.
        case cancelled
        /// No process is waiting under that id (never was, ended, or is showing it now).
        case notPending
    }

    /// Cancels the scheduled notification `id`: removes its record, then sends `SIGTERM` to
    /// its process, which ends without showing anything (more).
    static func cancel(id: String) throws(Failure) -> Cancellation {
        guard isValidID(id) else { return .notPending }
        let path = directory.appendingPathComponent("\(id).json").path
        // The PID is read, and a pidfd opened on it, before the lock proves the process alive.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .notPending }
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let record = read(descriptor).flatMap { try? OutsideJSON.decode(ScheduledRecord.self, from: $0, with: decoder) }
        let process = record.flatMap { $0.isPlausible ? ProcessHandle(pid: $0.pid) : nil }
        if isUnlocked(descriptor) {
            // Nobody holds it: stale.
            removeIfSame(path, as: descriptor)
            return .notPending
        }
        // Only a record whose lock its own process holds is a waiting notify's; anything else
        // (a file planted to name another process) is neither removed nor obeyed.
        guard let record, let process, LockTable.isLocked(descriptor, by: record.pid) else { return .notPending }
        // Whichever unlink wins decides: the process's own (it is firing) or this one.
        guard unlink(path) == 0 else { return .notPending }
        process.terminate()
        return .cancelled
    }

    // MARK: - Files

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// Creates the folder, private, or checks the one there (``PrivateStorage``).
    private static func createFolder(_ folder: URL) throws(Failure) {
        do {
            try PrivateStorage.prepareFolder(folder.path)
        } catch {
            throw Failure(description: error.localizedDescription)
        }
    }

    /// Checks the folder (``PrivateStorage``); `false` when there is none.
    private static func checkFolder(_ folder: URL) throws(Failure) -> Bool {
        do {
            return try PrivateStorage.checkFolder(folder.path)
        } catch {
            throw Failure(description: error.localizedDescription)
        }
    }

    private enum Inspection {
        case gone
        case stale
        /// Open, read-only, lock held by someone else.
        case live(Int32)
    }

    /// Opens a record and tells whether its process lives; removes it when stale.
    private static func inspect(_ path: String) -> Inspection {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return errno == ENOENT ? .gone : .stale }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .stale
        }
        if isUnlocked(descriptor) {
            removeIfSame(path, as: descriptor)
            close(descriptor)
            return .stale
        }
        return .live(descriptor)
    }

    /// Removes `path` if it is still the file open as `descriptor`.
    private static func removeIfSame(_ path: String, as descriptor: Int32) {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0,
              open.st_dev == named.st_dev, open.st_ino == named.st_ino
        else { return }
        unlink(path)
    }

    /// Removes a temporary file whose writer died before publishing it.
    private static func removeAbandonedTemporary(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0,
              Date().timeIntervalSince1970 - TimeInterval(status.st_mtim.tv_sec) > abandonedTemporaryAge,
              isUnlocked(descriptor)
        else { return }
        removeIfSame(path, as: descriptor)
    }

    /// Whether no process holds the exclusive lock of a record (or temporary file) open as
    /// `descriptor`. Readers test with a shared lock, which never conflicts with another
    /// reader's: so a failed test means the owner's exclusive lock, never a reader's, and
    /// `cancel` cannot mistake a reader for a waiting process.
    private static func isUnlocked(_ descriptor: Int32) -> Bool {
        flock(descriptor, LOCK_SH | LOCK_NB) == 0
    }

    /// The file's bytes, or `nil` when it cannot be read or is bigger than `limit`.
    static func read(_ descriptor: Int32, limit: Int = maximumRecordSize) -> Data? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
            offset += off_t(count)
            guard bytes.count <= limit else { return nil }
        }
        return Data(bytes)
    }

    private static func writeAll(_ descriptor: Int32, _ data: Data) -> Bool {
        var rest = [UInt8](data)[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}

/// A process to send `SIGTERM` to: a pidfd where the C library has `pidfd_open` (glibc 2.36,
/// Linux 5.3), so the signal reaches the very process that was open even if it has ended and
/// its PID been reused since; else the bare PID.
private final class ProcessHandle {
    private typealias Open = @convention(c) (pid_t, UInt32) -> Int32
    private typealias SendSignal = @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UInt32) -> Int32

    private static let pidfdOpen: Open? = function("pidfd_open")
    private static let pidfdSendSignal: SendSignal? = function("pidfd_send_signal")

    private static func function<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }

    private let pid: pid_t
    private let descriptor: Int32

    init?(pid: pid_t) {
        guard pid > 0 else { return nil }
        self.pid = pid
        if let openProcess = Self.pidfdOpen, Self.pidfdSendSignal != nil {
            let descriptor = openProcess(pid, 0)
            if descriptor < 0 && errno == ESRCH { return nil }
            self.descriptor = descriptor
        } else {
            descriptor = -1
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends `SIGTERM`.
    func terminate() {
        if descriptor >= 0, let send = Self.pidfdSendSignal {
            _ = send(descriptor, SIGTERM, nil, 0)
        } else {
            kill(pid, SIGTERM)
        }
    }
}
