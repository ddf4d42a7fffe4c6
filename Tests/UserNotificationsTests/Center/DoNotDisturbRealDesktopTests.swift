import DBus
import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// Do Not Disturb (a Linux addition) read from each real server's own switch, turned by that
/// server's own tool or interface: dunstctl set-paused, mako's SetModes (what makoctl mode -s
/// calls), xfconf-query, Plasma's Inhibit, and GNOME's show-banners setting.
@Suite("Do Not Disturb on real desktops: each server's own switch")
struct DoNotDisturbRealDesktopTests {
    static let identity = ApplicationIdentity(id: "org.example.DoNotDisturbTests", displayName: "Do Not Disturb Tests")

    static func read(_ testBus: TestBus, gnomeKeyfile: String? = nil) async throws -> DoNotDisturbStatus {
        let connection = try await DBusConnection.connect(to: testBus.bus)
        let status = await DoNotDisturbReader.read(on: connection, gnomeKeyfile: gnomeKeyfile)
        await connection.close()
        return status
    }

    static func call(_ connection: DBusConnection, path: String, interface: String, member: String, _ body: [DBusValue]) async throws -> DBusMessage {
        try await connection.call(try DBusMessage.methodCall(
            destination: "org.freedesktop.Notifications", path: try DBusObjectPath(path), interface: interface, member: member, body: body))
    }

    @Test("dunst: off, then on after dunstctl set-paused true; the center's sequence sees the change")
    func dunst() async throws {
        try await DunstDesktop.run { desktop in
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: false, source: .dunstPaused))
            let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(desktop.testBus.address), persistent: false)
            #expect(await center.doNotDisturb() == DoNotDisturbStatus(isOn: false, source: .dunstPaused))
            var updates = center.doNotDisturbUpdates(every: .milliseconds(100)).makeAsyncIterator()
            #expect(await updates.next()?.isOn == false)
            try await desktop.dunst.dunstctl(["set-paused", "true"])
            #expect(await updates.next() == DoNotDisturbStatus(isOn: true, source: .dunstPaused))
            try await desktop.dunst.dunstctl(["set-paused", "false"])
            #expect(await updates.next()?.isOn == false)
        }
    }

    @Test("mako: off, then on with the do-not-disturb mode set, off again without it")
    func mako() async throws {
        try await MakoDesktop.run { desktop in
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: false, source: .makoMode))
            let connection = try await DBusConnection.connect(to: desktop.testBus.bus)
            let modes = { (names: [String]) in
                [DBusValue.array(element: .string, names.map(DBusValue.string))]
            }
            _ = try await Self.call(connection, path: "/fr/emersion/Mako", interface: "fr.emersion.Mako", member: "SetModes", modes(["default", DoNotDisturbReader.makoMode]))
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: true, source: .makoMode))
            _ = try await Self.call(connection, path: "/fr/emersion/Mako", interface: "fr.emersion.Mako", member: "SetModes", modes(["default"]))
            #expect(try await Self.read(desktop.testBus).isOn == false)
            await connection.close()
        }
    }

    @Test("xfce4-notifyd: off while never set, on after xfconf-query sets /do-not-disturb")
    func xfce() async throws {
        try await XfceDesktop.run { desktop in
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: false, source: .xfceSetting))
            try await desktop.testBus.run("xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", "true"]).check()
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: true, source: .xfceSetting))
            try await desktop.testBus.run("xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-s", "false"]).check()
            #expect(try await Self.read(desktop.testBus).isOn == false)
        }
    }

    @Test("Plasma: off, on while a program holds Inhibit, off after UnInhibit")
    func plasma() async throws {
        try await PlasmaDesktop.run { desktop in
            #expect(try await Self.read(desktop.testBus) == DoNotDisturbStatus(isOn: false, source: .plasmaInhibited))
            let connection = try await DBusConnection.connect(to: desktop.testBus.bus)
            let reply = try await Self.call(
                connection, path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications", member: "Inhibit",
                [.string("org.example.Presenter"), .string("presenting"), .variantDictionary([])])
            let cookie = try #require(try reply.arguments("u").first?.uint32Value)
            #expect(await eventually(timeout: .seconds(10)) { (try? await Self.read(desktop.testBus)) == DoNotDisturbStatus(isOn: true, source: .plasmaInhibited) })
            _ = try await Self.call(
                connection, path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications", member: "UnInhibit", [.uint32(cookie)])
            #expect(await eventually(timeout: .seconds(10)) { (try? await Self.read(desktop.testBus))?.isOn == false })
            await connection.close()
        }
    }

    @Test("GNOME Shell: the shell is told by its name; show-banners false is on, true is off")
    func gnome() async throws {
        try await GnomeDesktop.run { desktop in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dnd-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let keyfile = folder.appendingPathComponent("settings").path
            try "[org/gnome/desktop/notifications]\nshow-banners=false\n".write(toFile: keyfile, atomically: true, encoding: .utf8)
            #expect(try await Self.read(desktop.testBus, gnomeKeyfile: keyfile) == DoNotDisturbStatus(isOn: true, source: .gnomeShowBanners))
            try "[org/gnome/desktop/notifications]\nshow-banners=true\n".write(toFile: keyfile, atomically: true, encoding: .utf8)
            #expect(try await Self.read(desktop.testBus, gnomeKeyfile: keyfile) == DoNotDisturbStatus(isOn: false, source: .gnomeShowBanners))
        }
    }

    @Test("no server: unknown, from no server")
    func noServer() async throws {
        let testBus = try await TestBus()
        #expect(try await Self.read(testBus) == DoNotDisturbStatus(isOn: nil, source: .noServer))
        await testBus.stop()
    }
}
