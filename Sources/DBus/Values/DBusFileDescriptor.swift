#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DesktopNotificationsSupport

/// One Unix file descriptor, owned: the value of a D-Bus `h` (``DBusValue/unixFileDescriptor(_:)``).
///
/// The object owns exactly one descriptor and closes it exactly once: at ``close()``, or when
/// the last reference goes away. The ownership rules:
///
/// - ``init(taking:)`` takes a descriptor the caller owns; the caller must not close it.
///   ``init(duplicating:)`` leaves the caller's descriptor alone and owns a duplicate.
/// - Sending a message does not consume its descriptors: libdbus sends duplicates, so the
///   values stay open and usable after the send; they close when released.
/// - A received `h` is a descriptor of its own (a duplicate of the one libdbus received), held
///   by the received message's value; it closes with the last copy of that value.
/// - ``duplicate()`` hands out a new descriptor the caller owns and must close; this object
///   keeps its own. ``take()`` hands out this object's descriptor itself: the caller owns it
///   and must close it, and the object holds none from then on (sending it fails with
///   ``DBusError/fileDescriptorUnavailable(_:)``).
/// - ``withDescriptor(_:)`` lends the descriptor for the length of a closure, which must not
///   close it or keep it, nor call this object (its lock is held).
///
/// Values are equal only when they are the same object: two objects never own the same
/// descriptor, even when both refer to the same open file.
public final class DBusFileDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor owned, -1 once taken or closed.
    private let owned: Locked<Int32>

    /// Takes ownership of `descriptor`, which this object will close.
    public init(taking descriptor: Int32) {
        owned = Locked(descriptor)
    }

    /// Owns a duplicate of `descriptor` (close-on-exec); the caller keeps `descriptor`.
    ///
    /// - Throws: ``DBusError/fileDescriptorUnavailable(_:)`` when the system cannot duplicate it.
    public convenience init(duplicating descriptor: Int32) throws(DBusError) {
        self.init(taking: try Self.duplicateDescriptor(descriptor))
    }

    deinit {
        close()
    }

    /// Whether the object still owns a descriptor (it has not been taken nor closed).
    public var isOpen: Bool {
        owned.withLock { $0 >= 0 }
    }

    /// A new descriptor for the same open file (close-on-exec), owned by the caller.
    ///
    /// - Throws: ``DBusError/fileDescriptorUnavailable(_:)`` when the object holds none or the
    ///   system cannot duplicate it.
    public func duplicate() throws(DBusError) -> Int32 {
        try withDescriptor { descriptor throws(DBusError) in try Self.duplicateDescriptor(descriptor) }
    }

    /// Hands the descriptor to the caller, who owns it from now on and must close it.
    ///
    /// - Throws: ``DBusError/fileDescriptorUnavailable(_:)`` when it was taken or closed before.
    public func take() throws(DBusError) -> Int32 {
        let descriptor = owned.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        guard descriptor >= 0 else { throw .fileDescriptorUnavailable("it was taken or closed") }
        return descriptor
    }

    /// Runs `body` with the descriptor, which stays owned by this object; `body` must not close
    /// it or keep it.
    ///
    /// - Throws: ``DBusError/fileDescriptorUnavailable(_:)`` when the object holds none, and
    ///   what `body` throws.
    public func withDescriptor<Result>(_ body: (Int32) throws(DBusError) -> Result) throws(DBusError) -> Result {
        try owned.withLock { descriptor throws(DBusError) in
            guard descriptor >= 0 else { throw .fileDescriptorUnavailable("it was taken or closed") }
            return try body(descriptor)
        }
    }

    /// Closes the descriptor now; later calls do nothing.
    public func close() {
        let descriptor = owned.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    public var description: String {
        let descriptor = owned.withLock { $0 }
        return descriptor >= 0 ? "DBusFileDescriptor(\(descriptor))" : "DBusFileDescriptor(closed)"
    }

    public static func == (left: DBusFileDescriptor, right: DBusFileDescriptor) -> Bool {
        left === right
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    private static func duplicateDescriptor(_ descriptor: Int32) throws(DBusError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw .fileDescriptorUnavailable("could not duplicate it: \(String(cString: strerror(errno)))")
        }
        return copy
    }
}

/// The system's `close`, out of reach of ``DBusFileDescriptor/close()``'s name.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
