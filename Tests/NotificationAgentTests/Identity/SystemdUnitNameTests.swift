import Testing
@testable import NotificationAgent

@Suite("SystemdUnitName and ControlGroupFile: app ids from systemd's XDG unit names")
struct SystemdUnitNameTests {
    @Test("each naming form gives the id; escaped dashes are undone", arguments: [
        ("app-gnome-org.gnome.Epiphany-182352.scope", "org.gnome.Epiphany"),
        ("app-org.example.App-1234.scope", "org.example.App"),
        ("app-org.example.App-.scope", "org.example.App"),
        ("app-org.example.App@a1b2.service", "org.example.App"),
        ("app-KDE-org.kde.okular@12345.service", "org.kde.okular"),
        ("app-org.example.App.service", "org.example.App"),
        ("app-gnome-org.example.App-autostart.service", "org.example.App"),
        ("app-flatpak-org.telegram.desktop-12345.scope", "org.telegram.desktop"),
        ("app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify-2437.scope", "org.gnome.Evolution-alarm-notify"),
        ("app-org.example.My\\x2dApp@1.service", "org.example.My-App"),
        ("app-gnome-org.example.App-1.slice", "org.example.App"),
    ] as [(String, String)])
    func forms(unit: String, id: String) {
        #expect(SystemdUnitName.applicationID(fromUnit: unit) == id)
    }

    @Test("units that name no app", arguments: [
        "app-not-a-well-formed-unit-name",
        "app-glib-spice\\x2dvdagent-1839.scope",
        "session-2.scope",
        "app-org.example.App-12.34.scope",
        "app-gnome-org.example.Bad\\x2-1.scope",
        "app-gnome-org.example.Bad\\xff-1.scope",
        "app-.scope",
        "app-gnome-1.scope",
        "app-org.example.App.socket",
        "app-9org.example.App-1.scope",
    ])
    func notApps(unit: String) {
        #expect(SystemdUnitName.applicationID(fromUnit: unit) == nil)
    }

    @Test("the unit is the first element below the user manager that is not a slice")
    func cgroupFiles() {
        let unified = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.App-77.scope/sub\n"
        #expect(ControlGroupFile.unit(fromCgroupFile: unified) == "app-gnome-org.example.App-77.scope")
        let legacy = "12:cpu:/\n1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app-org.example.App@3.service\n"
        #expect(ControlGroupFile.unit(fromCgroupFile: legacy) == "app-org.example.App@3.service")
        #expect(ControlGroupFile.unit(fromCgroupFile: "0::/\n") == nil)
        #expect(ControlGroupFile.unit(fromCgroupFile: "0::/system.slice/cron.service\n") == "cron.service")
        #expect(ControlGroupFile.unit(fromCgroupFile: "garbage") == nil)
    }
}
