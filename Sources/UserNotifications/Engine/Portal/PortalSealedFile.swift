import DBus
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's bytes as a sealed memory file (`memfd_create`), the form the notification portal
/// (version 2) takes an icon or a sound in: `("file-descriptor", <h>)`.
///
/// The file is made with `MFD_ALLOW_SEALING | MFD_CLOEXEC`, filled, then sealed against
/// writing, shrinking, growing and further sealing (`F_SEAL_WRITE | F_SEAL_SHRINK |
/// F_SEAL_GROW | F_SEAL_SEAL`), so the portal reads exactly the bytes the app meant and the app
/// cannot change them afterwards. The descriptor is owned by the ``DBusFileDescriptor``
/// returned; the engine closes it once the call that carried it returned or failed.
///
/// Sizes are bounded: an icon at ``maximumIconBytes``, a sound at ``maximumSoundBytes``. A
/// larger file, or one that cannot be read, is ``Failure`` and the engine sends what version 1
/// sends instead (the app's themed icon, the `default` sound), and logs why.
enum PortalSealedFile {
    /// The largest icon sent, in bytes (4 MiB: far above any notification image a server
    /// scales down, far below what would strain the portal that reads it).
    static let maximumIconBytes = 4 << 20
    /// The largest sound sent, in bytes (16 MiB: a few minutes of compressed audio).
    static let maximumSoundBytes = 16 << 20

    /// Why a file was not made into a sealed memory file.
    enum Failure: Error, Hashable, CustomStringConvertible {
        /// The file is larger than the limit.
        case tooLarge(path: String, limit: Int)
        /// The file could not be opened or read.
        case unreadable(path: String, reason: String)
        /// The memory file could not be made, filled or sealed.
        case memoryFile(String)

        var description: String {
            switch self {
            case .tooLarge(let path, let limit): "\(path) is larger than \(limit) bytes"
            case .unreadable(let path, let reason): "\(path) could not be read: \(reason)"
            case .memoryFile(let reason): "no sealed memory file: \(reason)"
            }
        }
    }

    // The values of <linux/memfd.h> and <fcntl.h> (GNU): the Glibc module leaves them out.
    static let allowSealing: UInt32 = 0x0002
    static let closeOnExec: UInt32 = 0x0001
    static let addSeals: Int32 = 1033
    static let getSeals: Int32 = 1034
    static let sealSeal: Int32 = 0x0001
    static let sealShrink: Int32 = 0x0002
    static let sealGrow: Int32 = 0x0004
    static let sealWrite: Int32 = 0x0008
    /// Every seal the engine sets.
    static let allSeals = sealWrite | sealShrink | sealGrow | sealSeal

    private typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's `memfd_create`, which the Glibc module does not declare.
    private static let create: Create? = dlsym(nil, "memfd_create").map { unsafeBitCast($0, to: Create.self) }

    /// The bytes of the regular file at `url`, at most `limit`: a file larger than `limit` is
    /// refused by its size before anything is read, and anything but a regular file (a FIFO,
    /// a device, a folder) is refused without blocking on it (it is opened non-blocking).
    static func read(_ url: URL, limit: Int) throws(Failure) -> [UInt8] {
        let path = url.path
        let raw = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard raw >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { _ = close(raw) }
        var status = stat()
        guard fstat(raw, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        guard status.st_size <= limit else { throw .tooLarge(path: path, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(raw, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        // A file that shrank meanwhile gives what it still holds.
        return Array(bytes.prefix(filled))
    }

    /// A sealed memory file named `name` holding `bytes`.
    static func make(named name: String, bytes: [UInt8]) throws(Failure) -> DBusFileDescriptor {
        guard let create else { throw .memoryFile("memfd_create is not available") }
        let raw = create(name, allowSealing | closeOnExec)
        guard raw >= 0 else { throw .memoryFile("memfd_create: \(String(cString: strerror(errno)))") }
        let descriptor = DBusFileDescriptor(taking: raw)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(raw, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                descriptor.close()
                throw .memoryFile("write: \(String(cString: strerror(errno)))")
            }
            written += count
        }
        guard fcntl(raw, addSeals, allSeals) == 0 else {
            let reason = String(cString: strerror(errno))
            descriptor.close()
            throw .memoryFile("F_ADD_SEALS: \(reason)")
        }
        return descriptor
    }

    /// The portal's value for a sealed file: `("file-descriptor", <h>)`.
    static func value(_ descriptor: DBusFileDescriptor) -> DBusValue {
        .structure([.string("file-descriptor"), .variant(.unixFileDescriptor(descriptor))])
    }
}
