#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`, shared by this package's modules.
///
/// It has the shape of `Synchronization.Mutex`, which on Linux is built on raw futex system
/// calls that ThreadSanitizer cannot see, so every use of it is reported as a race; a pthread
/// mutex is intercepted, and the thread-sanitizer runs stay meaningful. It is the package's one
/// lock: the product's modules use no other (atomics aside).
public final class Locked<Value>: @unchecked Sendable {
    // Inlinable, with the two fields it reaches: every module of the package takes the lock,
    // and a call across modules that is not inlined runs the generic body unspecialized (the
    // type metadata of the value and the result looked up at run time, at each call).
    //
    // The value lives behind a pointer, not in a stored `var`: an inout access to a class's
    // stored property is checked for exclusivity at run time (about 70 instructions for each
    // call), and the mutex already makes the access exclusive.
    @usableFromInline let value: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
