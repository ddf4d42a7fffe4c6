import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls the state store makes, each turning a failure into a ``StateStoreError``
/// that carries the path and `errno`. Foundation's file APIs hide `errno` and cannot `fsync` a
/// folder, so the store speaks POSIX directly.
enum StateFileSystem {
    /// The error for the call that just failed, read from `errno`.
    static func failure(_ operation: StateStoreError.Operation, _ path: String) -> StateStoreError {
        failure(operation, path, code: errno)
    }

    static func failure(_ operation: StateStoreError.Operation, _ path: String, code: Int32) -> StateStoreError {
        .fileSystem(operation: operation, path: path, code: code, message: String(cString: strerror(code)))
    }

    /// Retries `call` while it fails with `EINTR`.
    static func retryingInterrupts(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result != -1 || errno != EINTR { return result }
        }
    }

    // MARK: - Folders

    /// Whether `path` exists; it is not created.
    static func exists(_ path: String) throws -> Bool {
        var status = stat()
        if lstat(path, &status) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure(.inspectFolder, path)
    }

    /// Creates `path` and any missing parents, readable by the user only.
    static func createFolder(_ path: String) throws {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw failure(.createFolder, path) }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard parent != path else { throw failure(.createFolder, path, code: ENOENT) }
        try createFolder(parent)
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
        throw failure(.createFolder, path)
    }

    /// The names in the folder `path`, without `.` and `..`.
    static func names(inFolder path: String) throws -> [String] {
        guard let folder = opendir(path) else { throw failure(.listFolder, path) }
        defer { closedir(folder) }
        return names(in: folder)
    }

    /// The names in the open folder `folder`, without `.` and `..`.
    static func names(in folder: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Flushes the folder `path` itself, so that a rename or removal in it survives power loss.
    static func syncFolder(_ path: String) throws {
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure(.syncFolder, path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(.syncFolder, path) }
    }

    // MARK: - Files

    /// What ``contents(of:)`` found at a path.
    enum FileContents: Equatable {
        /// Nothing is there.
        case absent
        /// A regular file (or a link to one), with its bytes.
        case regular(Data)
        /// A folder, a FIFO, a socket or a device: nothing to read state from.
        case notARegularFile
    }

    /// The whole content of the regular file at `path`.
    ///
    /// Opened without blocking and checked before reading: a FIFO with no writer would make a
    /// plain open wait forever, and a device could be read forever.
    static func contents(of path: String) throws -> FileContents {
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return .absent }
            throw failure(.read, path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(.read, path) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .notARegularFile }
        var contents = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress, bytes.count)
            }
            if count == 0 { return .regular(contents) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.read, path)
            }
            contents.append(contentsOf: buffer[..<count])
        }
    }

    /// Writes all of `data` to `descriptor`, which is open on `path`.
    static func write(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(.writeTemporary, path)
                }
                offset += count
            }
        }
    }

    static func rename(_ source: String, to destination: String, operation: StateStoreError.Operation) throws {
        guard systemRename(source, destination) == 0 else { throw failure(operation, source) }
    }

    /// Removes the file at `path`; a file already gone is not an error.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure(.removeTemporary, path) }
    }
}

// The enum's own `write` and `rename` hide the C functions inside it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
