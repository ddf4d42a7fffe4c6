import DBus
import Foundation
import Testing
@testable import NotificationAgent
import UserNotificationsTesting

@Suite("CallerIdentity: which app a caller is, from fabricated /proc trees and from this process")
struct CallerIdentityTests {
    private static let unitCgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.Unit\\x2dApp-9.scope\n"

    /// A fabricated Flatpak process `pid` of instance `instance`, whose sandbox's first process
    /// (`bwrapinfo.json`'s `child-pid`) is `child`; namespaces are files standing for the kernel's.
    private static func sandbox(
        _ proc: TemporaryFolder, runtime: TemporaryFolder, pid: Int, instance: String = "1234", child: Int? = nil,
        namespace: String = "mnt:[1]", info: String? = nil
    ) throws {
        try proc.write(
            info ?? "[Application]\nname=org.example.Sandboxed\nruntime=runtime/org.gnome.Platform/x86_64/46\n[Instance]\ninstance-id=\(instance)\n",
            to: "\(pid)/root/.flatpak-info")
        for kind in ["mnt", "user"] { try proc.write(namespace + kind, to: "\(pid)/ns/\(kind)") }
        try runtime.write("{\"child-pid\": \(child ?? pid), \"mnt-namespace\": 1}", to: ".flatpak/\(instance)/bwrapinfo.json")
    }

    @Test("a sandbox's .flatpak-info wins over its cgroup, once its running instance holds the process")
    func flatpak() throws {
        let proc = try TemporaryFolder()
        let runtime = try TemporaryFolder()
        try Self.sandbox(proc, runtime: runtime, pid: 100)
        try proc.write(Self.unitCgroup, to: "100/cgroup")
        #expect(try CallerIdentityResolver(processRoot: proc.path, runtimeDirectory: runtime.path).identity(ofProcess: 100) == .flatpak("org.example.Sandboxed"))
    }

    @Test("a /.flatpak-info that no running Flatpak instance stands behind is refused, as a namespace of one's own can fake it")
    func fakedSandbox() throws {
        let proc = try TemporaryFolder()
        let runtime = try TemporaryFolder()
        let resolver = CallerIdentityResolver(processRoot: proc.path, runtimeDirectory: runtime.path)
        // No [Instance]: what a hand-made /.flatpak-info usually lacks.
        try Self.sandbox(proc, runtime: runtime, pid: 300, info: "[Application]\nname=org.example.Sandboxed\n")
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 300, reason: "it names no sandbox instance ([Instance] instance-id=)")) {
            try resolver.identity(ofProcess: 300)
        }
        // An instance Flatpak does not run.
        try Self.sandbox(proc, runtime: runtime, pid: 301, instance: "77")
        try FileManager.default.removeItem(atPath: "\(runtime.path)/.flatpak/77")
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 301, reason: "its sandbox instance 77 is not running")) {
            try resolver.identity(ofProcess: 301)
        }
        // A running instance whose sandbox is another namespace than the caller's.
        try Self.sandbox(proc, runtime: runtime, pid: 302, instance: "88", child: 303)
        for kind in ["mnt", "user"] { try proc.write("mnt:[2]" + kind, to: "303/ns/\(kind)") }
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 302, reason: "it is not inside its sandbox instance 88")) {
            try resolver.identity(ofProcess: 302)
        }
        // Without XDG_RUNTIME_DIR nothing can be checked.
        try Self.sandbox(proc, runtime: runtime, pid: 304, instance: "99")
        #expect(throws: CallerIdentityError.self) {
            try CallerIdentityResolver(processRoot: proc.path, runtimeDirectory: nil).identity(ofProcess: 304)
        }
        // A link in the sandbox's root is never followed (it would resolve against ours).
        try FileManager.default.createDirectory(atPath: "\(proc.path)/305/root", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(proc.path)/305/root/.flatpak-info", withDestinationPath: "\(proc.path)/100/root/.flatpak-info")
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 305, reason: BoundedFile.describe(errno: ELOOP))) {
            try resolver.identity(ofProcess: 305)
        }
    }

    @Test("a systemd app unit names the app; no unit leaves the caller's claim")
    func systemdUnitAndDeclared() throws {
        let proc = try TemporaryFolder()
        try proc.write(Self.unitCgroup, to: "101/cgroup")
        try proc.write("0::/user.slice/user-1000.slice/session-2.scope\n", to: "102/cgroup")
        try FileManager.default.createDirectory(atPath: "\(proc.path)/103", withIntermediateDirectories: true)
        let resolver = CallerIdentityResolver(processRoot: proc.path)
        #expect(try resolver.identity(ofProcess: 101) == .systemdUnit("org.example.Unit-App"))
        #expect(try resolver.identity(ofProcess: 102) == .declared)
        #expect(try resolver.identity(ofProcess: 103) == .declared)
    }

    @Test("a sandbox whose info cannot be used is refused, never taken at its word; a gone process too")
    func unusableSandboxInfo() throws {
        let proc = try TemporaryFolder()
        try proc.write("[Application]\nruntime=x\n", to: "200/root/.flatpak-info")
        try FileManager.default.createDirectory(atPath: "\(proc.path)/201/root/.flatpak-info", withIntermediateDirectories: true)
        try proc.write("[Application\n", to: "202/root/.flatpak-info")
        let resolver = CallerIdentityResolver(processRoot: proc.path)
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 200, reason: "it has no [Application] name=")) {
            try resolver.identity(ofProcess: 200)
        }
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 201, reason: "not a regular file")) {
            try resolver.identity(ofProcess: 201)
        }
        #expect(throws: CallerIdentityError.unreadableSandboxInfo(pid: 202, reason: DesktopEntryError.malformedGroupHeader(line: 1).description)) {
            try resolver.identity(ofProcess: 202)
        }
        #expect(throws: CallerIdentityError.processGone(pid: 999)) { try resolver.identity(ofProcess: 999) }
    }

    @Test("a claim the sandbox or the unit contradicts is a typed error; a declared caller's claim stands")
    func verifyClaims() throws {
        #expect(try CallerIdentity.flatpak("org.example.A").verify(claimed: "org.example.A") == "org.example.A")
        #expect(throws: CallerIdentityError.claimContradicted(claimed: "org.example.B", identity: .flatpak("org.example.A"))) {
            try CallerIdentity.flatpak("org.example.A").verify(claimed: "org.example.B")
        }
        #expect(throws: CallerIdentityError.claimContradicted(claimed: "org.example.B", identity: .systemdUnit("org.example.A"))) {
            try CallerIdentity.systemdUnit("org.example.A").verify(claimed: "org.example.B")
        }
        #expect(try CallerIdentity.declared.verify(claimed: "org.example.Anything") == "org.example.Anything")
        let error = CallerIdentityError.claimContradicted(claimed: "org.example.B", identity: .flatpak("org.example.A"))
        #expect(error.description == "the caller claims to be org.example.B but is the Flatpak app org.example.A; call with that id")
    }

    @Test("this test process through a real bus: our PID, and the identity /proc/self says")
    func thisProcess() async throws {
        let bus = try await TestBus()
        let agent = try await DBusConnection.connect(to: .address(bus.address))
        let caller = try await DBusConnection.connect(to: .address(bus.address))
        let found = try await CallerIdentityResolver().caller(caller.uniqueName, on: agent)
        #expect(found.pid == getpid())
        #expect(found.busName == caller.uniqueName)
        let cgroup = try String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        if FileManager.default.fileExists(atPath: "/.flatpak-info") {
            guard case .flatpak = found.identity else { Issue.record("sandboxed, but \(found.identity)"); return }
        } else if let unit = ControlGroupFile.unit(fromCgroupFile: cgroup), unit.hasPrefix("app-"),
                  let id = SystemdUnitName.applicationID(fromUnit: unit) {
            #expect(found.identity == .systemdUnit(id))
        } else {
            #expect(found.identity == .declared)
            #expect(!cgroup.contains("/app-") || !cgroup.contains("."))
        }
        await caller.close()
        await agent.close()
    }

    @Test("a caller of another user is refused; an unknown bus name is a bus error")
    func foreignAndUnknown() async throws {
        let bus = try await TestBus()
        let agent = try await DBusConnection.connect(to: .address(bus.address))
        let caller = try await DBusConnection.connect(to: .address(bus.address))
        let ours = getuid()
        await #expect(throws: CallerIdentityError.foreignUser(busName: caller.uniqueName, userID: ours, agentUserID: ours &+ 1)) {
            try await CallerIdentityResolver(userID: ours &+ 1).caller(caller.uniqueName, on: agent)
        }
        let error = await #expect(throws: CallerIdentityError.self) {
            try await CallerIdentityResolver().caller(":1.9999", on: agent)
        }
        guard case .bus(":1.9999", let dbusError) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(dbusError.remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner")
        await caller.close()
        await agent.close()
    }
}
