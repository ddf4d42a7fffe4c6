import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// gdk-pixbuf decodes and encodes the images; without it (and without
/// DESKTOPNOTIFICATIONS_REQUIRE_TOOLS=1) these tests stand down, with it required they fail
/// naming the package.
private let pixbuf = "libgdk_pixbuf-2.0.so.0"

@Suite(
    "Portal engine: an image's clipping rectangle is applied to the icon (version 2)",
    .serialized, .enabled(if: ToolRequirement.canRun(needingLibrary: pixbuf)))
struct PortalClippedIconTests {
    let directory: TemporaryDirectory
    let image: URL

    init() throws {
        try ToolRequirement.requireSharedLibrary(pixbuf, package: "libgdk-pixbuf-2.0-0")
        directory = try TemporaryDirectory()
        // A 4 × 4 RGB image whose pixel (x, y) is (10x, 10y + 1, 200).
        image = directory.url.appendingPathComponent("gradient.png")
        try PNGFile.write(to: image, width: 4, height: 4) { x, y in [UInt8(10 * x), UInt8(10 * y + 1), 200] }
    }

    func attachment(clipping rect: CGRect?) throws -> UNNotificationAttachment {
        let options = rect.map { [UNNotificationAttachmentOptionsThumbnailClippingRectKey: $0.dictionaryRepresentation] }
        return try UNNotificationAttachment(identifier: "img", url: image, options: options)
    }

    /// The pixels of the PNG file `bytes`, decoded whole.
    func decoded(_ bytes: [UInt8]) throws -> NotificationImage? {
        let file = directory.url.appendingPathComponent("icon-\(UUID().uuidString).png")
        try Data(bytes).write(to: file)
        let whole = try ThumbnailClippingRect(optionValue: CGRect(x: 0, y: 0, width: 1, height: 1).dictionaryRepresentation)
        return ClippedThumbnail.render(fileAt: file.path, clippingTo: whole)
    }

    @Test("the middle of a 4 × 4 image: the icon is a PNG of the 2 × 2 middle, the pixels the freedesktop path sends")
    func middle() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("clipped", attachments: [try attachment(clipping: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))])
        let icon = try #require(fixture.portal.files.last { $0.key == "icon" })
        #expect(icon.id == "clipped")
        #expect(Array(icon.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try decoded(icon.bytes) == (try NotificationImage(
            width: 2, height: 2, rowStride: 6, hasAlpha: false, channels: 3,
            data: [10, 11, 200, 20, 11, 200, 10, 21, 200, 20, 21, 200])))
        await fixture.stop()
    }

    @Test("a rectangle covering the whole image sends the file as it is")
    func whole() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("whole", attachments: [try attachment(clipping: CGRect(x: 0, y: 0, width: 1, height: 1))])
        let icon = try #require(fixture.portal.files.last { $0.key == "icon" })
        #expect(icon.bytes == [UInt8](try Data(contentsOf: image)))
        await fixture.stop()
    }

    @Test("an image that cannot be decoded is sent whole, as before")
    func undecodable() async throws {
        let broken = try directory.file(named: "broken.png", header: FileHeader.png + [1, 2, 3, 4])
        let options = [UNNotificationAttachmentOptionsThumbnailClippingRectKey: CGRect(x: 0, y: 0, width: 0.5, height: 0.5).dictionaryRepresentation]
        let fixture = try await PortalFixture()
        try await fixture.post("broken", attachments: [try UNNotificationAttachment(identifier: "img", url: broken, options: options)])
        let icon = try #require(fixture.portal.files.last { $0.key == "icon" })
        #expect(icon.bytes == [UInt8](try Data(contentsOf: broken)))
        await fixture.stop()
    }
}
