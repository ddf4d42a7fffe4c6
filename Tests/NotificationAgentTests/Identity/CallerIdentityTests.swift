import DBus
import Foundation
import Testing
@testable import NotificationAgent
import UserNotificationsTesting

@Suite("CallerIdentity: which app a caller is, from fabricated /proc trees and from this process")
struct CallerIdentityTests {
    private static let unitCgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.Unit\\x2dApp-9.scope\n"

    @Test("a sandbox's .flatpak-info wins over its cgroup")
    func flatpak() throws {
        let proc = try TemporaryFolder()
        try proc.write("[Application]\nname=org.example.Sandboxed\nruntime=runtime/org.gnome.Platform/x86_64/46\n", to: "100/root/.flatpak-info")
        try proc.write(Self.unitCgroup, to: "100/cgroup")
        #expect(try CallerIdentityResolver(processRoot: proc.path).identity(ofProcess: 100) == .flatpak("org.example.Sandboxed"))
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
