import Foundation
import Testing
import UserNotificationsTesting

/// The gallery (`make gallery`): a fresh picture of seed 000's notification on each desktop
/// must not be blank and must show the title, as tesseract reads it.
@Suite("Gallery: seed 000's notification pictured on each desktop, its title read back")
struct GalleryTests {
    @Test("a fresh picture of each desktop is not blank and shows the title", arguments: GalleryDesktop.allCases)
    func freshPicture(desktop: GalleryDesktop) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("GalleryTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent(desktop.fileName)
        try await Gallery.capture(desktop, to: picture)
        try await Gallery.check(picture)
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
