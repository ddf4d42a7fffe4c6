import Foundation
import Testing
import UserNotificationsTesting

/// The gallery (`make gallery`): a fresh picture of seed 000's notification on each desktop,
/// and the committed ones (docs/gallery and their copies in the DocC catalog), must not be
/// blank and must show the title, as tesseract reads it.
@Suite("Gallery: seed 000's notification pictured on each desktop, its title read back")
struct GalleryTests {
    /// The package's root folder, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let gallery = root.appendingPathComponent("docs/gallery")
    static let docCResources = root.appendingPathComponent("Sources/UserNotifications/UserNotifications.docc/Resources")

    @Test("a fresh picture of each desktop is not blank and shows the title", arguments: GalleryDesktop.allCases)
    func freshPicture(desktop: GalleryDesktop) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("GalleryTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent(desktop.fileName)
        try await Gallery.capture(desktop, to: picture)
        try await Gallery.check(picture)
    }

    @Test("each committed picture is not blank, shows the title, and the documentation shows the same", arguments: GalleryDesktop.allCases)
    func committedPicture(desktop: GalleryDesktop) async throws {
        let picture = Self.gallery.appendingPathComponent(desktop.fileName)
        try await Gallery.check(picture)
        let copy = Self.docCResources.appendingPathComponent("gallery-\(desktop.fileName)")
        #expect(try Data(contentsOf: copy) == Data(contentsOf: picture), "run make gallery to copy the pictures")
    }

    @Test("the index shows every picture; the README and the DocC overview link them")
    func links() throws {
        let index = try String(contentsOf: Self.gallery.appendingPathComponent("README.md"), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let overview = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/UserNotifications/UserNotifications.docc/UserNotifications.md"), encoding: .utf8)
        for desktop in GalleryDesktop.allCases {
            #expect(index.contains("](\(desktop.fileName))"), "\(desktop)")
            #expect(readme.contains("docs/gallery/\(desktop.fileName)"), "\(desktop)")
            #expect(overview.contains("](gallery-\(desktop.fileName))"), "\(desktop)")
        }
        #expect(!index.contains("Not captured"))
        #expect(Gallery.index(pictures: GalleryDesktop.allCases, failures: [:]) == index, "run make gallery to write the index again")
    }

    @Test("GNOME: a notification already in the banner is dismissed, and the gallery's banner opens with its buttons")
    func gnomeBannerAfterAnother() async throws {
        try await GnomeDesktop.run { desktop in
            let notifySend = try NotifySend(bus: desktop.testBus)
            // The shell keeps a banner while nobody uses the pointer: this one would stay in front.
            #expect(try await notifySend.start(["Earlier notice", "Shown first"]).result(timeout: .seconds(15)).succeeded)
            try await desktop.shell.waitForList(count: 1)
            // With a button notify-send waits for it until stopped (by PID, below).
            let waiting = try notifySend.start(["-A", "go=Go", Gallery.title, Gallery.body])
            defer { _ = waiting.send(SIGTERM) }
            try await desktop.shell.waitForList(count: 2)
            try await desktop.shell.openBanner(titled: Gallery.title)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("GalleryTests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let screen = folder.appendingPathComponent("screen.png")
            let banner = try await desktop.shell.waitForBanner(titled: Gallery.title, screenshot: screen)
            let picture = folder.appendingPathComponent("banner.png")
            try await GalleryImaging.finish(screen, crop: .region(banner), to: picture)
            try await Gallery.check(picture)
            // Opened, the banner shows its button.
            #expect(Gallery.readable("Go", in: try await GalleryImaging.recognizeText(in: picture)))
        }
    }

    @Test("the check fails a blank picture and one without the title")
    func checkCanFail() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("GalleryTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blank = folder.appendingPathComponent("blank.png")
        try await GalleryImaging.run("convert", ["-size", "400x80", "xc:#336699", blank.path])
        await #expect(throws: HarnessError.self) { try await Gallery.check(blank) }
        // Text, but not the title: an older title must not pass.
        let other = folder.appendingPathComponent("other.png")
        try await GalleryImaging.run("convert", [
            "-size", "400x80", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "20", "-fill", "black",
            "-annotate", "+10+40", "Image Notification", other.path,
        ])
        await #expect(throws: HarnessError.self) { try await Gallery.check(other) }
        // The same picture with the title passes: the check reads what is there.
        let titled = folder.appendingPathComponent("titled.png")
        try await GalleryImaging.run("convert", [
            "-size", "400x80", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "20", "-fill", "black",
            "-annotate", "+10+40", Gallery.title, titled.path,
        ])
        try await Gallery.check(titled)
    }
}
