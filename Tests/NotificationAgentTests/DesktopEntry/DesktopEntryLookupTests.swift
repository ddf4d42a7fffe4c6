import Foundation
import Testing
@testable import NotificationAgent

@Suite("Desktop entry lookup: XDG_DATA_HOME, then each of XDG_DATA_DIRS")
struct DesktopEntryLookupTests {
    @Test("the defaults are ~/.local/share, /usr/local/share and /usr/share; relative paths are ignored")
    func defaults() {
        #expect(XDGDataDirectories(environment: ["HOME": "/home/a"]).applicationDirectories == [
            "/home/a/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications",
        ])
        let relative = XDGDataDirectories(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "rel", "XDG_DATA_DIRS": "rel2:/opt/share/"])
        #expect(relative.applicationDirectories == ["/home/a/.local/share/applications", "/opt/share/applications"])
    }

    @Test("the first folder holding the entry wins, in search order")
    func searchOrder() throws {
        let folder = try TemporaryFolder()
        let environment = [
            "HOME": "\(folder.path)/home",
            "XDG_DATA_DIRS": "\(folder.path)/first:\(folder.path)/second",
        ]
        let directories = XDGDataDirectories(environment: environment)
        try folder.write("[Desktop Entry]\nType=Application\nName=Second\n", to: "second/applications/org.example.App.desktop")
        #expect(try directories.desktopEntry(for: "org.example.App").entry.name == "Second")

        try folder.write("[Desktop Entry]\nType=Application\nName=First\n", to: "first/applications/org.example.App.desktop")
        #expect(try directories.desktopEntry(for: "org.example.App").entry.name == "First")

        let user = try folder.write("[Desktop Entry]\nType=Application\nName=User\n", to: "home/.local/share/applications/org.example.App.desktop")
        let found = try directories.desktopEntry(for: "org.example.App")
        #expect(found.entry.name == "User")
        #expect(found.path == user)

        try folder.write("[Desktop Entry]\nType=Application\nName=Data home\n", to: "data/applications/org.example.App.desktop")
        var withDataHome = environment
        withDataHome["XDG_DATA_HOME"] = "\(folder.path)/data"
        #expect(try XDGDataDirectories(environment: withDataHome).desktopEntry(for: "org.example.App").entry.name == "Data home")
    }

    @Test("a Hidden entry hides the app; a missing one names the folders searched")
    func hiddenAndMissing() throws {
        let folder = try TemporaryFolder()
        let directories = XDGDataDirectories(environment: ["XDG_DATA_HOME": "\(folder.path)/home", "XDG_DATA_DIRS": "\(folder.path)/system"])
        try folder.write("[Desktop Entry]\nType=Application\nName=System\n", to: "system/applications/org.example.App.desktop")
        try folder.write("[Desktop Entry]\nHidden=true\n", to: "home/applications/org.example.App.desktop")
        let searched = ["\(folder.path)/home/applications", "\(folder.path)/system/applications"]
        #expect(throws: ApplicationLaunchError.noDesktopEntry(appID: "org.example.App", searched: searched)) {
            try directories.desktopEntry(for: "org.example.App")
        }
        #expect(throws: ApplicationLaunchError.noDesktopEntry(appID: "org.example.Other", searched: searched)) {
            try directories.desktopEntry(for: "org.example.Other")
        }
    }

    @Test("ids that are no file name, unreadable and broken entries are typed errors")
    func badIDsAndFiles() throws {
        let folder = try TemporaryFolder()
        let directories = XDGDataDirectories(environment: ["XDG_DATA_HOME": folder.path, "XDG_DATA_DIRS": "/nonexistent"])
        for id in ["", "../etc/passwd", ".hidden", String(repeating: "a", count: 256)] {
            #expect(throws: ApplicationLaunchError.invalidApplicationID(id)) { try directories.desktopEntry(for: id) }
        }
        let broken = try folder.write("[Desktop Entry]\nName\n", to: "applications/org.example.Broken.desktop")
        #expect(throws: ApplicationLaunchError.invalidDesktopEntry(path: broken, .missingEqualsSign(line: 2))) {
            try directories.desktopEntry(for: "org.example.Broken")
        }
        try FileManager.default.createDirectory(atPath: "\(folder.path)/applications/org.example.Folder.desktop", withIntermediateDirectories: true)
        #expect(throws: ApplicationLaunchError.unreadableDesktopEntry(
            path: "\(folder.path)/applications/org.example.Folder.desktop", reason: "not a regular file")) {
            try directories.desktopEntry(for: "org.example.Folder")
        }
    }
}
