import DesktopNotificationsSupport
import Foundation

/// The kernel's table of file locks, `/proc/locks`, read to learn which process holds a
/// record's `flock`.
///
/// A failed `flock` test only says that someone holds the lock; the table says who. Each held
/// lock is a line such as `1: FLOCK  ADVISORY  WRITE 4242 00:2f:1311 0 EOF`: the kind, the
/// mode, the PID of the process that took it, and the file as major and minor device numbers
/// (hexadecimal) and inode number. Processes waiting for a lock are listed under it with `->`,
/// and are not holders.
enum LockTable {
    /// The largest table read; a bigger one is not trusted to be complete.
    static let maximumSize = 16 << 20

    /// Whether process `pid` holds an exclusive `flock` on the file open as `descriptor`.
    /// `false` when the table cannot be read: nothing is proven then.
    static func isLocked(_ descriptor: Int32, by pid: pid_t) -> Bool {
        var status = stat()
        guard pid > 0, fstat(descriptor, &status) == 0 else { return false }
        let table = open("/proc/locks", O_RDONLY | O_CLOEXEC)
        guard table >= 0 else { return false }
        defer { close(table) }
        guard let data = ScheduledRecords.read(table, limit: maximumSize) else { return false }
        let file = "\(hex(major(status.st_dev))):\(hex(minor(status.st_dev))):\(status.st_ino)"
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE"
                && fields[4] == "\(pid)" && fields[5] == file
        }
    }

    /// The major number of a device, as glibc's `major()` decodes it.
    private static func major(_ device: dev_t) -> UInt64 {
        let value = UInt64(device)
        return ((value >> 8) & 0xFFF) | ((value >> 32) & ~0xFFF)
    }

    /// The minor number of a device, as glibc's `minor()` decodes it.
    private static func minor(_ device: dev_t) -> UInt64 {
        let value = UInt64(device)
        return (value & 0xFF) | ((value >> 12) & ~0xFF)
    }

    /// At least two lowercase hexadecimal digits, as the kernel prints device numbers.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }
}
