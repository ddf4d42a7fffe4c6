import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies one attachment's bytes into the store the way a process that serves other processes
/// must: the source is opened once, never through a link (`O_NOFOLLOW`) and never waiting on
/// a FIFO or a device (`O_NONBLOCK`), checked on its descriptor to be a regular file, and its
/// size read from that descriptor and checked against the room left before a byte is copied;
/// the copy is a new file (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600 set with `fchmod` on the
/// descriptor, never on a path) and at most that many bytes are copied, however the source
/// changes meanwhile.
///
/// A descriptor handed over by another process (the agent's `AddFiles`) is checked the same way.
package enum AttachmentCopy {
    /// Why a source cannot be copied.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path could not be opened (`errno`): missing, unreadable, or a symbolic link (`ELOOP`).
        case cannotOpen(errno: Int32)
        /// The source is not a regular file (a folder, a FIFO, a device, a socket).
        case notARegularFile
        /// The source holds more bytes than the room left.
        case tooLarge(size: Int, room: Int)
        /// Reading the source or writing the copy failed (`errno`).
        case ioFailed(errno: Int32)

        package var description: String {
            switch self {
            case .cannotOpen(let code) where code == ELOOP: "it is a symbolic link"
            case .cannotOpen(let code): "it cannot be opened (\(String(cString: strerror(code))))"
            case .notARegularFile: "it is not a regular file"
            case .tooLarge(let size, let room): "it holds \(size) bytes; \(room) are left"
            case .ioFailed(let code): "it could not be copied (\(String(cString: strerror(code))))"
            }
        }
    }

    /// Opens `path` for reading without following a link at its last element and without
    /// waiting (`O_NONBLOCK`), and returns the descriptor, owned by the caller.
    package static func openSource(path: String) throws(Refusal) -> Int32 {
        let descriptor = StateFileSystem.retryingInterrupts {
            open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard descriptor >= 0 else { throw .cannotOpen(errno: errno) }
        return descriptor
    }

    /// The size of the regular file open at `descriptor`.
    ///
    /// - Throws: ``Refusal/notARegularFile`` for anything else.
    package static func regularFileSize(of descriptor: Int32) throws(Refusal) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .ioFailed(errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
        return Int(status.st_size)
    }

    /// Copies the regular file open at `source` (its current offset is ignored: reads start at
    /// 0) into a new file at `destination`, when it holds at most `room` bytes.
    ///
    /// - Returns: the bytes copied.
    /// - Throws: a ``Refusal``; nothing is left at `destination` then.
    @discardableResult
    package static func copy(from source: Int32, to destination: String, room: Int) throws(Refusal) -> Int {
        let size = try regularFileSize(of: source)
        guard size <= room else { throw .tooLarge(size: size, room: room) }
        let target = StateFileSystem.retryingInterrupts {
            open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard target >= 0 else { throw .ioFailed(errno: errno) }
        var failure: Refusal?
        if fchmod(target, 0o600) != 0 { failure = .ioFailed(errno: errno) }
        if failure == nil {
            do throws(Refusal) {
                try copyBytes(from: source, to: target, count: size)
            } catch {
                failure = error
            }
        }
        if close(target) != 0, failure == nil { failure = .ioFailed(errno: errno) }
        if let failure {
            unlink(destination)
            throw failure
        }
        return size
    }

    /// Copies at most `count` bytes from offset 0 of `source` to `target`; a source that
    /// shrank meanwhile gives fewer.
    private static func copyBytes(from source: Int32, to target: Int32, count: Int) throws(Refusal) {
        var buffer = [UInt8](repeating: 0, count: min(max(count, 1), 64 * 1024))
        var offset = 0
        while offset < count {
            let wanted = min(buffer.count, count - offset)
            let read = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, wanted, off_t(offset)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw .ioFailed(errno: errno)
            }
            if read == 0 { return }
            var written = 0
            while written < read {
                let result = buffer.withUnsafeBytes { write(target, $0.baseAddress! + written, read - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw .ioFailed(errno: errno)
                }
                written += result
            }
            offset += read
        }
    }
}
