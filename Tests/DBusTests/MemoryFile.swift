import DBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Memory files (`memfd_create`) for descriptor tests, named so that a test can count the
/// descriptors of its own files this process holds, whatever other tests run beside it.
enum MemoryFile {
    private typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `memfd_create`, which the Glibc module does not declare.
    private static let create: Create? = dlsym(nil, "memfd_create").map { unsafeBitCast($0, to: Create.self) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A new memory file named `name` holding `contents` (close-on-exec).
    static func make(named name: String, contents: [UInt8]) throws -> DBusFileDescriptor {
        guard let create else { throw Failure(description: "memfd_create is not available") }
        let raw = create(name, 1)
        guard raw >= 0 else { throw Failure(description: "memfd_create failed: \(errno)") }
        let descriptor = DBusFileDescriptor(taking: raw)
        let written = contents.withUnsafeBytes { write(raw, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw Failure(description: "write failed: \(errno)") }
        return descriptor
    }

    /// The whole contents of the file `descriptor` refers to, read from its start.
    static func contents(of descriptor: DBusFileDescriptor) throws -> [UInt8] {
        try descriptor.withDescriptor { raw in
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = bytes.withUnsafeMutableBytes { pread(raw, $0.baseAddress, $0.count, 0) }
            return Array(bytes.prefix(max(count, 0)))
        }
    }

    /// How many descriptors of this process refer to memory files named `name`.
    static func openCount(named name: String) -> Int {
        descriptorTargets().filter { $0.hasPrefix("/memfd:\(name) ") }.count
    }

    /// How many descriptors this process holds.
    static func processDescriptorCount() -> Int {
        descriptorTargets().count
    }

    private static func descriptorTargets() -> [String] {
        let folder = "/proc/self/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
    }

    /// A name no other test uses.
    static func uniqueName(_ purpose: String) -> String {
        "dbus-test-\(purpose)-\(UUID().uuidString.prefix(8))"
    }
}
