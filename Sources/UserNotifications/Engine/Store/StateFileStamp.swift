#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of a state file as it lies on disk: its device, inode, size and times. A save
/// renames a new file over the old one, so every save, by any process, makes a new stamp; a
/// writer that finds the stamp of its own last save knows the file holds what it wrote, and
/// need not read it again.
package struct StateFileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let changed: timespec

    /// The stamp of the file at `path`; `nil` when there is none or it cannot be read (then
    /// the file is read again, which is always safe).
    static func of(_ path: String) -> StateFileStamp? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return StateFileStamp(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: status.st_mtim,
            changed: status.st_ctim)
    }

    package static func == (left: StateFileStamp, right: StateFileStamp) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.modified.tv_sec == right.modified.tv_sec && left.modified.tv_nsec == right.modified.tv_nsec
            && left.changed.tv_sec == right.changed.tv_sec && left.changed.tv_nsec == right.changed.tv_nsec
    }
}
