import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An attachment file opened for its checks: a regular file, judged on the opened descriptor
/// itself, so a FIFO, a device or a socket is refused at once (opening a FIFO would otherwise
/// wait for a writer, and reading a device may never end), and the file that is measured and
/// read is the one that was checked.
///
/// Symbolic links are followed: an app may well hand over a link, and what counts is the file
/// finally opened, which `fstat` sees.
struct AttachmentFileDescriptor: ~Copyable {
    let path: String
    /// The file's size when it was opened.
    let byteCount: Int
    private let descriptor: Int32

    /// Opens the file at `path`.
    ///
    /// - Throws: ``UNError`` `attachmentInvalidURL` when nothing is there, it cannot be read,
    ///   or it is not a regular file.
    init(path: String) throws(UNError) {
        // O_NONBLOCK: opening a FIFO for reading would wait for a writer; it changes nothing
        // for a regular file.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Self.openFailure(path: path, errorNumber: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            let isDirectory = status.st_mode & S_IFMT == S_IFDIR
            close(descriptor)
            throw UNError(
                .attachmentInvalidURL,
                description: isDirectory
                    ? "The attachment at \(path) is a directory, not a file."
                    : "The attachment at \(path) is not a regular file (a FIFO, a device or a socket cannot be attached).")
        }
        self.path = path
        self.descriptor = descriptor
        self.byteCount = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from the start of the file.
    func leadingBytes(count: Int) throws(UNError) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let start = buffer.baseAddress else { return 0 }
                return pread(descriptor, start + filled, count - filled, off_t(filled))
            }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else {
                throw UNError(.attachmentInvalidURL, description: "The attachment file \(path) cannot be read: \(String(cString: strerror(errno))).")
            }
            if read == 0 { break }
            filled += read
        }
        return Data(bytes.prefix(filled))
    }

    private static func openFailure(path: String, errorNumber: Int32) -> UNError {
        let description = errorNumber == ENOENT || errorNumber == ENOTDIR
            ? "There is no attachment file at \(path)."
            : "The attachment file \(path) cannot be read: \(String(cString: strerror(errorNumber)))."
        return UNError(.attachmentInvalidURL, description: description)
    }
}
