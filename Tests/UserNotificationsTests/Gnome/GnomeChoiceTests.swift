import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Engine choice: GNOME's interface for a D-Bus activatable app on GNOME")
struct GnomeChoiceTests {
    static let appID = "org.example.GnomeChoiceTests"

    /// A data folder with `applications/<appID>.desktop` holding `entry`, when given.
    func dataHome(entry: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gnome-choice-\(UUID().uuidString)")
        let applications = folder.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        if let entry {
            try Data(entry.utf8).write(to: applications.appendingPathComponent("\(Self.appID).desktop"))
        }
        return folder
    }

    static let activatable = "[Desktop Entry]\nType=Application\nName=Choice\nExec=/bin/true\nDBusActivatable=true\n"

    /// The kind the choice makes with nothing asked for, on `testBus`, looking in `dataHome`.
    func chosen(on testBus: TestBus, dataHome: URL, requested: NotificationEngineKind? = nil) async -> NotificationEngineKind {
        let identity = ApplicationIdentity(id: Self.appID, displayName: "Choice")
        let clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        let environment = ["XDG_DATA_HOME": dataHome.path, "XDG_DATA_DIRS": "/nonexistent", "HOME": "/nonexistent"]
        let engine = EngineChoice.engine(
            requested: requested, identity: identity, bus: .address(testBus.address), host: EngineHostReference(), clock: clock,
            environment: environment
        ) {
            EngineCore.start(
                identity: identity, client: NotificationsClient(bus: .address(testBus.address)), clock: clock, host: EngineHostReference(),
                stateDirectory: nil)
        }
        defer { engine.close() }
        return await (engine as? ChoosingEngine)?.kind() ?? .inProcess
    }

    @Test("GNOME's owner and an activatable desktop entry choose GNOME; without either, in process")
    func automatic() async throws {
        let testBus = try await TestBus()
        let withEntry = try dataHome(entry: Self.activatable)
        let notActivatable = try dataHome(entry: Self.activatable.replacingOccurrences(of: "=true", with: "=false"))
        let noEntry = try dataHome(entry: nil)
        defer { for folder in [withEntry, notActivatable, noEntry] { try? FileManager.default.removeItem(at: folder) } }

        #expect(await chosen(on: testBus, dataHome: withEntry) == .inProcess)
        let gtk = try await FakeGtkNotifications.start(on: testBus.bus, knownApps: [Self.appID])
        #expect(await chosen(on: testBus, dataHome: withEntry) == .gnome)
        #expect(await chosen(on: testBus, dataHome: notActivatable) == .inProcess)
        #expect(await chosen(on: testBus, dataHome: noEntry) == .inProcess)
        #expect(await chosen(on: testBus, dataHome: withEntry, requested: .agent) == .inProcess)
        #expect(await chosen(on: testBus, dataHome: noEntry, requested: .gnome) == .gnome)
        await gtk.stop()
        await testBus.stop()
    }

    @Test("DESKTOPNOTIFICATIONS_ENGINE=gnome asks for it; a sandbox still means the portal")
    func requested() throws {
        let absent = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString)").path
        #expect(EngineChoice.requested(nil, environment: [EngineChoice.environmentVariable: "gnome"], flatpakInfo: absent) == .gnome)
        #expect(EngineChoice.requested(.gnome, environment: [:], flatpakInfo: absent) == .gnome)
        #expect(EngineChoice.requested(nil, environment: ["SNAP": "/snap/x/1"], flatpakInfo: absent) == .portal)
    }

    @Test("the desktop entry is read as the specification says: the main group's last DBusActivatable, true only")
    func desktopEntry() throws {
        func activatable(_ text: String) -> Bool { ActivatableDesktopEntry.isActivatable(Array(text.utf8)) }
        #expect(activatable(Self.activatable))
        #expect(activatable("# c\r\n[Desktop Entry]\r\nDBusActivatable = true\r\n"))
        #expect(!activatable("[Desktop Entry]\nDBusActivatable=True\n"))
        #expect(!activatable("[Desktop Entry]\nDBusActivatable=true\nDBusActivatable=false\n"))
        #expect(!activatable("[Desktop Action x]\nDBusActivatable=true\n"))
        #expect(!activatable("DBusActivatable=true\n"))
        #expect(!activatable("[Desktop Entry]\nX-DBusActivatable=true\n"))
        #expect(!activatable(Self.activatable + String(repeating: "#", count: ActivatableDesktopEntry.maximumBytes)))

        let home = try dataHome(entry: Self.activatable)
        defer { try? FileManager.default.removeItem(at: home) }
        let dirs = try dataHome(entry: "[Desktop Entry]\nDBusActivatable=false\n")
        defer { try? FileManager.default.removeItem(at: dirs) }
        // The first entry found wins: XDG_DATA_HOME before XDG_DATA_DIRS.
        #expect(ActivatableDesktopEntry.isActivatable(appID: Self.appID, environment: ["XDG_DATA_HOME": home.path, "XDG_DATA_DIRS": dirs.path]))
        #expect(!ActivatableDesktopEntry.isActivatable(appID: Self.appID, environment: ["XDG_DATA_HOME": dirs.path, "XDG_DATA_DIRS": home.path]))
        #expect(ActivatableDesktopEntry.isActivatable(appID: Self.appID, environment: ["XDG_DATA_HOME": "/nonexistent", "XDG_DATA_DIRS": "/x:" + home.path]))
        #expect(!ActivatableDesktopEntry.isActivatable(appID: "../" + Self.appID, environment: ["XDG_DATA_HOME": home.path]))
    }
}
