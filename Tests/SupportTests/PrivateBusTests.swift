import DesktopNotificationsSupport
import Foundation
import Testing

@Suite("PrivateBus: a bus an installed program starts without the source checkout")
struct PrivateBusTests {
    /// Runs `dbus-send` against `address`; its exit status and standard error.
    private func dbusSend(_ address: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        process.arguments = ["--bus=\(address)", "--print-reply"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("it answers, activates nothing, and stop() ends the daemon and removes its folder")
    func startsAnswersStops() throws {
        let bus = try PrivateBus()
        let path = try #require(bus.address.split(separator: ",").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(bus.address.hasPrefix("unix:path="))
        #expect(FileManager.default.fileExists(atPath: path))
        let ping = try dbusSend(bus.address, ["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer.Ping"])
        #expect(ping.status == 0, "\(ping.error)")
        let notify = try dbusSend(bus.address, [
            "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
            "org.freedesktop.Notifications.GetCapabilities",
        ])
        #expect(notify.status != 0)
        #expect(notify.error.contains("ServiceUnknown"))
        bus.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
        bus.stop()
    }
}
