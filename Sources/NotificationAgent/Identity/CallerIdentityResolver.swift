#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBus
import Foundation

/// Tells which app a D-Bus caller is (see ``CallerIdentity`` for the order and the trust
/// each answer carries), refusing callers of another user.
///
/// `/proc` is read under ``processRoot`` and the agent's user is ``userID``, so that tests
/// can use fabricated trees and users.
package struct CallerIdentityResolver: Sendable {
    /// Where the process folders are: `/proc`.
    package let processRoot: String
    /// The user the agent serves: its own.
    package let userID: UInt32
    /// The user's runtime folder (`$XDG_RUNTIME_DIR`), where Flatpak keeps its running
    /// instances (`.flatpak/<instance>/bwrapinfo.json`).
    package let runtimeDirectory: String?

    /// Creates a resolver.
    package init(
        processRoot: String = "/proc", userID: UInt32 = getuid(),
        runtimeDirectory: String? = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
    ) {
        self.processRoot = processRoot
        self.userID = userID
        self.runtimeDirectory = runtimeDirectory
    }

    /// Asks the bus who `busName` is (`GetConnectionUnixUser`, `GetConnectionUnixProcessID`)
    /// and reads its identity.
    ///
    /// - Throws: ``CallerIdentityError/foreignUser(busName:userID:agentUserID:)`` for another
    ///   user, ``CallerIdentityError/bus(busName:_:)`` when the bus cannot tell, and the
    ///   errors of ``identity(ofProcess:)``.
    package func caller(_ busName: String, on connection: DBusConnection) async throws(CallerIdentityError) -> Caller {
        let uid = try await ask(connection, "GetConnectionUnixUser", about: busName)
        guard uid == userID else { throw .foreignUser(busName: busName, userID: uid, agentUserID: userID) }
        let pid = try await ask(connection, "GetConnectionUnixProcessID", about: busName)
        guard let processID = Int32(exactly: pid) else { throw .bus(busName: busName, .malformed("PID \(pid) out of range")) }
        return Caller(busName: busName, pid: processID, identity: try identity(ofProcess: processID))
    }

    /// The identity of process `pid`, from its `.flatpak-info` and its cgroup.
    ///
    /// - Throws: ``CallerIdentityError/processGone(pid:)`` when `/proc/PID` is missing;
    ///   ``CallerIdentityError/unreadableSandboxInfo(pid:reason:)`` when `.flatpak-info`
    ///   exists but cannot be read or names no app (a sandboxed caller never falls back to
    ///   its own claim).
    package func identity(ofProcess pid: Int32) throws(CallerIdentityError) -> CallerIdentity {
        let folder = "\(processRoot)/\(pid)"
        guard access(folder, F_OK) == 0 else { throw .processGone(pid: pid) }
        if let id = try flatpakID(folder: folder, pid: pid) { return .flatpak(id) }
        let cgroup = (try? BoundedFile.read("\(folder)/cgroup", limit: 64 * 1024)).map { String(decoding: $0, as: UTF8.self) }
        if let unit = cgroup.flatMap(ControlGroupFile.unit(fromCgroupFile:)), let id = SystemdUnitName.applicationID(fromUnit: unit) {
            return .systemdUnit(id)
        }
        return .declared
    }

    /// The app id of a Flatpak sandbox, checked as xdg-desktop-portal checks it and more: the
    /// process's `/.flatpak-info` (opened through its root, never through a link) must name the
    /// app and its sandbox instance (`[Instance] instance-id`), that instance must be running
    /// (`$XDG_RUNTIME_DIR/.flatpak/<instance>/bwrapinfo.json`, which Flatpak writes on the host,
    /// names its sandbox's first process), and that process must share the caller's mount and
    /// user namespaces. A process that made its own namespaces and a `/.flatpak-info` of its own
    /// fails the last checks unless it also forged a running instance on the host, which only a
    /// process of the user's own (trusted) domain can; even then it gains nothing over a caller
    /// that declares the id (``CallerIdentityResolver/authorize(sender:senderPID:appID:boundSender:boundPID:on:)``).
    ///
    /// - Returns: `nil` when the process has no `/.flatpak-info`.
    private func flatpakID(folder: String, pid: Int32) throws(CallerIdentityError) -> String? {
        // `/proc/PID/root` is a link the kernel resolves to the process's root: it must be
        // followed (the path is the agent's own, from the bus's PID); `.flatpak-info` in it is not.
        let root = open("\(folder)/root", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard root >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadableSandboxInfo(pid: pid, reason: "its root cannot be opened: \(BoundedFile.describe(errno: errno))")
        }
        defer { close(root) }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(".flatpak-info", in: root, limit: KeyFile.maximumFileSize)
        } catch .system(errno: ENOENT) {
            return nil
        } catch .system(errno: let code) {
            throw .unreadableSandboxInfo(pid: pid, reason: BoundedFile.describe(errno: code))
        } catch {
            throw .unreadableSandboxInfo(pid: pid, reason: "not a regular file")
        }
        let file: KeyFile
        do {
            file = try KeyFile(parsing: bytes)
        } catch {
            throw .unreadableSandboxInfo(pid: pid, reason: error.description)
        }
        guard let name = file.group("Application")?.string("name"), !name.isEmpty else {
            throw .unreadableSandboxInfo(pid: pid, reason: "it has no [Application] name=")
        }
        guard ApplicationID.isValid(name) else {
            throw .unreadableSandboxInfo(pid: pid, reason: "its [Application] name= is not an app id")
        }
        guard let instance = file.group("Instance")?.string("instance-id"), Self.isInstanceID(instance) else {
            throw .unreadableSandboxInfo(pid: pid, reason: "it names no sandbox instance ([Instance] instance-id=)")
        }
        try checkRunningInstance(instance, holds: folder, pid: pid)
        return name
    }

    /// A Flatpak instance id: 1 to 64 ASCII letters and digits (Flatpak's are numbers).
    static func isInstanceID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// Throws unless the Flatpak instance `instance` runs and its sandbox's first process
    /// shares the mount and user namespaces of the process in `folder`.
    private func checkRunningInstance(_ instance: String, holds folder: String, pid: Int32) throws(CallerIdentityError) {
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else {
            throw .unreadableSandboxInfo(pid: pid, reason: "XDG_RUNTIME_DIR is not set, so its sandbox instance cannot be checked")
        }
        let infoPath = "\(runtimeDirectory)/.flatpak/\(instance)/bwrapinfo.json"
        let childPID: Int
        do {
            let bytes = try BoundedFile.read(infoPath, limit: 64 * 1024)
            guard bytes.count <= 64 * 1024,
                  let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let number = object["child-pid"] as? NSNumber, let value = Int(exactly: number.doubleValue), value > 0,
                  value <= Int(Int32.max) else {
                throw CallerIdentityError.unreadableSandboxInfo(pid: pid, reason: "its sandbox instance \(instance) names no process")
            }
            childPID = value
        } catch let error as CallerIdentityError {
            throw error
        } catch {
            throw .unreadableSandboxInfo(pid: pid, reason: "its sandbox instance \(instance) is not running")
        }
        for namespace in ["mnt", "user"] {
            guard let ours = Self.inode(of: "\(processRoot)/\(childPID)/ns/\(namespace)"),
                  let theirs = Self.inode(of: "\(folder)/ns/\(namespace)"), ours == theirs else {
                throw .unreadableSandboxInfo(pid: pid, reason: "it is not inside its sandbox instance \(instance)")
            }
        }
    }

    /// The device and inode a path leads to (following links, as `/proc/PID/ns/*` must be).
    private static func inode(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    private func ask(_ connection: DBusConnection, _ member: String, about busName: String) async throws(CallerIdentityError) -> UInt32 {
        do {
            guard let value = try await connection.callBus(member, [.string(busName)]).arguments("u").first?.uint32Value else {
                throw DBusError.malformed("\(member) reply")
            }
            return value
        } catch let error as DBusError {
            throw .bus(busName: busName, error)
        } catch {
            throw .bus(busName: busName, .malformed("\(error)"))
        }
    }
}
