import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// What `notify --id NAME` remembers of a notification it delivered: the server instance
/// (its unique bus name) that assigned the id, the id, and the summary (for `notify list`).
struct RememberedNotification: Codable, Sendable, Equatable {
    var server: String
    var id: UInt32
    var summary: String
}

/// The names given with `--id`, kept across runs in `$XDG_STATE_HOME/notify/ids.json`
/// (by default `~/.local/state/notify/ids.json`).
///
/// An id only means something to the server instance that assigned it, so each entry keeps
/// that server's unique name; an entry whose server no longer owns
/// `org.freedesktop.Notifications` is stale. Every change is a read-modify-write under an
/// exclusive `flock` on a lock file next to it, written atomically, so runs of `notify` in
/// parallel do not lose each other's entries. The folder and the file are private
/// (``PrivateStorage``).
enum IdentifierStore {
    /// Why the store could not be read or written.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder: `$XDG_STATE_HOME/notify` when that is an absolute path, else
    /// `~/.local/state/notify`.
    static var directory: URL {
        ApplicationIdentity.stateHome.appendingPathComponent("notify", isDirectory: true)
    }

    /// The file.
    static var file: URL { directory.appendingPathComponent("ids.json") }

    /// Whether `name` can be given to `--id`: not empty, and not a number (`notify close`
    /// reads a number as an id).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && UInt32(name) == nil && !name.contains(where: \.isNewline)
    }

    /// The entries as they are now (no lock: a snapshot for reading).
    static func entries() throws(Failure) -> [String: RememberedNotification] {
        try read()
    }

    /// Changes the entries under the lock; writes them back when `body` changed them.
    @discardableResult
    static func update<T>(_ body: (inout [String: RememberedNotification]) -> T) throws(Failure) -> T {
        let folder = directory
        do {
            try PrivateStorage.prepareFolder(folder.path)
        } catch {
            throw Failure(description: error.localizedDescription)
        }
        let lockPath = folder.appendingPathComponent("ids.json.lock").path
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure(description: "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(description: "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(lock, LOCK_UN) }
        var entries = try read()
        let before = entries
        let result = body(&entries)
        if entries != before {
            do {
                try PrivateStorage.writeFile(try JSONEncoder.sorted.encode(entries), to: file.path)
            } catch {
                throw Failure(description: "cannot write \(file.path): \(error.localizedDescription)")
            }
        }
        return result
    }

    /// A missing file is an empty store; an unreadable one, or one in a folder of another
    /// user, is a failure.
    private static func read() throws(Failure) -> [String: RememberedNotification] {
        let path = file.path
        do {
            guard try PrivateStorage.checkFolder(directory.path) else { return [:] }
        } catch {
            throw Failure(description: error.localizedDescription)
        }
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        do {
            let data = try Data(contentsOf: file)
            if data.isEmpty { return [:] }
            return try OutsideJSON.decode([String: RememberedNotification].self, from: data)
        } catch {
            throw Failure(description: "cannot read \(path) (delete it to start afresh): \(error.localizedDescription)")
        }
    }
}

extension JSONEncoder {
    /// Sorted keys, pretty-printed: a file a person can read.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }
}
