import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file, held until this object goes away.
///
/// `flock` locks belong to the open file, so two holders in one process exclude each other just
/// as two processes do, and the kernel releases the lock when the holder dies, even by
/// `kill -9`. The lock file itself is never removed: removing it would let a second holder lock
/// a new file while the first still holds the old one.
final class StateFileLock: Sendable {
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock at `path`, creating the file if needed.
    ///
    /// - Parameter waiting: Wait for the holder to let go; otherwise fail at once with
    ///   ``StateStoreError/claimedElsewhere(lockPath:)`` when the lock is held.
    static func acquire(at path: String, waiting: Bool) throws -> StateFileLock {
        let descriptor = StateFileSystem.retryingInterrupts { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw StateFileSystem.failure(.openLock, path) }
        let operation = waiting ? LOCK_EX : LOCK_EX | LOCK_NB
        guard StateFileSystem.retryingInterrupts({ flock(descriptor, operation) }) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw StateStoreError.claimedElsewhere(lockPath: path) }
            throw StateFileSystem.failure(.lock, path, code: code)
        }
        return StateFileLock(path: path, descriptor: descriptor)
    }
}
