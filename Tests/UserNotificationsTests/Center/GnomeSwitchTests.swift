import Foundation
@testable import UserNotifications
import Testing

@Suite("GNOME's per-app notification switch")
struct GnomeSwitchTests {
    @Test("GNOME's settings name: lower case, everything but letters and digits a hyphen")
    func names() {
        #expect(GnomeNotificationSwitch.settingsName("org.gnome.Evolution-alarm-notify") == "org-gnome-evolution-alarm-notify")
        #expect(GnomeNotificationSwitch.settingsName("firefox_esr") == "firefox-esr")
    }

    @Test("an app turned off in the settings reads as off; others as on (needs gsettings-desktop-schemas)")
    func switchRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gsettings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyfile = folder.appendingPathComponent("keyfile")
        try """
            [org/gnome/desktop/notifications/application/org-example-muted]
            enable=false

            [org/gnome/desktop/notifications/application/org-example-loud]
            enable=true
            """.write(to: keyfile, atomically: true, encoding: .utf8)
        #expect(GnomeNotificationSwitch.isTurnedOff(appID: "org.example.Muted", keyfile: keyfile.path))
        #expect(!GnomeNotificationSwitch.isTurnedOff(appID: "org.example.Loud", keyfile: keyfile.path))
        #expect(!GnomeNotificationSwitch.isTurnedOff(appID: "org.example.Unset", keyfile: keyfile.path))
    }
}
