import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One save of a state file, in the steps that make it survive a crash or a power loss.
///
/// A process killed after any step leaves the target holding either the old value or the new
/// one, whole: until the rename the target is untouched, and the rename replaces it at once.
/// The flushes make the same true after a power loss (a rename that reaches the disk before the
/// data it names leaves an empty file). What a crash can leave behind is a temporary file,
/// which the next ``StateFile/load()`` removes.
final class StateFileWrite {
    enum Step: CaseIterable {
        /// Create a new temporary file beside the target, readable by the user only.
        case createTemporary
        /// Write the bytes into it.
        case writeTemporary
        /// Flush it to disk.
        case syncTemporary
        /// Close it and rename it over the target.
        case renameOverTarget
        /// Flush the folder, so the rename itself is on disk.
        case syncFolder
    }

    let temporaryPath: String
    private let data: Data
    private let targetPath: String
    private let folderPath: String
    private var descriptor: Int32 = -1

    init(data: Data, targetPath: String, folderPath: String, temporaryPath: String) {
        self.data = data
        self.targetPath = targetPath
        self.folderPath = folderPath
        self.temporaryPath = temporaryPath
    }

    /// Closing is all the kernel does for a process that dies mid-write.
    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Performs every step in order; on failure the temporary file is removed.
    func perform() throws {
        do {
            for step in Step.allCases {
                try perform(step)
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            try? StateFileSystem.remove(temporaryPath)
            throw error
        }
    }

    /// Performs one step; the steps must come in the order of ``Step``.
    func perform(_ step: Step) throws {
        switch step {
        case .createTemporary:
            descriptor = StateFileSystem.retryingInterrupts {
                open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
            guard descriptor >= 0 else { throw StateFileSystem.failure(.createTemporary, temporaryPath) }
        case .writeTemporary:
            try StateFileSystem.write(data, to: descriptor, path: temporaryPath)
        case .syncTemporary:
            guard fsync(descriptor) == 0 else { throw StateFileSystem.failure(.syncTemporary, temporaryPath) }
        case .renameOverTarget:
            let closed = close(descriptor)
            descriptor = -1
            // A failed close can mean the data never reached the file (on network file systems).
            guard closed == 0 else { throw StateFileSystem.failure(.writeTemporary, temporaryPath) }
            try StateFileSystem.rename(temporaryPath, to: targetPath, operation: .rename)
        case .syncFolder:
            try StateFileSystem.syncFolder(folderPath)
        }
    }
}
