#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBus

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

    /// Creates a resolver.
    package init(processRoot: String = "/proc", userID: UInt32 = getuid()) {
        self.processRoot = processRoot
        self.userID = userID
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

    private func flatpakID(folder: String, pid: Int32) throws(CallerIdentityError) -> String? {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read("\(folder)/root/.flatpak-info", limit: KeyFile.maximumFileSize)
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
        return name
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
