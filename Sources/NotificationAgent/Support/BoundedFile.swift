#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads small files that anyone may have written (desktop entries, `/proc` files), never
/// more than a bound, never blocking on a FIFO, never following a file into a device.
package enum BoundedFile {
    /// Why a file could not be read.
    package enum Failure: Error, Sendable, Hashable {
        /// `open` or `read` failed with this `errno` (`ENOENT` when there is no file).
        case system(errno: Int32)
        /// The path names something other than a regular file.
        case notRegularFile
    }

    /// The file's bytes, at most `limit + 1` of them: a caller that finds more than `limit`
    /// knows the file is too large without reading the rest.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .system(errno: errno) }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, limit: limit)
    }

    /// ``read(_:limit:)`` of the entry `name` of the open folder `folder`, never following a
    /// link at `name` (`O_NOFOLLOW`: a link gives `ELOOP`). Under `/proc/PID/root` this keeps a
    /// link inside another process's root from being resolved against this process's root.
    package static func read(_ name: String, in folder: Int32, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { throw .system(errno: errno) }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, limit: limit)
    }

    private static func read(descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw .system(errno: errno) }
            if got == 0 { break }
            count += got
        }
        return Array(bytes[..<count])
    }

    /// The text of `errno`, for error messages.
    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
