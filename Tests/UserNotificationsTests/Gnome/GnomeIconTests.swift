import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// gdk-pixbuf decodes and encodes a clipped image; without it (and without
/// DESKTOPNOTIFICATIONS_REQUIRE_TOOLS=1) the clipping test stands down, with it required it
/// fails naming the package.
private let pixbuf = "libgdk_pixbuf-2.0.so.0"

@Suite("GNOME engine: the image attachment shown is the icon, as GNOME's bytes icon (fake GNOME Shell service)")
struct GnomeIconTests {
    static let app = GnomeFixture.identity.id
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A 4 × 4 RGB PNG whose pixel (x, y) is (10x, 10y + 1, 200).
    func gradient() throws -> URL {
        let image = directory.url.appendingPathComponent("gradient-\(UUID().uuidString).png")
        try PNGFile.write(to: image, width: 4, height: 4) { x, y in [UInt8(10 * x), UInt8(10 * y + 1), 200] }
        return image
    }

    @Test("the first image whose thumbnail is not hidden is sent as ('bytes', <its file's bytes>); none keeps the themed icon")
    func image() async throws {
        let fixture = try await GnomeFixture()
        let hidden = try UNNotificationAttachment(
            identifier: "hidden", url: try gradient(), options: [UNNotificationAttachmentOptionsThumbnailHiddenKey: true])
        let shownFile = try gradient()
        let shownBytes = [UInt8](try Data(contentsOf: shownFile))
        let shown = try UNNotificationAttachment(identifier: "shown", url: shownFile)
        try await fixture.post("image", attachments: [hidden, shown])
        #expect(fixture.gtk.notification(of: Self.app, id: "image")?["icon"] == .structure([.string("bytes"), .variant(.byteArray(shownBytes))]))

        try await fixture.post("plain", attachments: [hidden])
        #expect(fixture.gtk.notification(of: Self.app, id: "plain")?["icon"] == .structure([.string("themed"), .variant(.stringArray(["dialog-information"]))]))
        await fixture.stop()
    }

    @Test("an image larger than the bound is not sent: the themed icon, and the notification is shown")
    func tooLarge() async throws {
        let large = try directory.file(named: "large.png", header: FileHeader.png, size: GnomePayload.maximumIconBytes + 1)
        let fixture = try await GnomeFixture()
        try await fixture.post("large", attachments: [try UNNotificationAttachment(identifier: "large", url: large)])
        let notification = try #require(fixture.gtk.notification(of: Self.app, id: "large"))
        #expect(notification["icon"] == .structure([.string("themed"), .variant(.stringArray(["dialog-information"]))]))
        #expect(await fixture.center.deliveredNotifications().map(\.request.identifier) == ["large"])
        await fixture.stop()
    }

    @Test(
        "a clipping rectangle sends the clipped thumbnail as PNG bytes, as the portal's icon file",
        .enabled(if: ToolRequirement.canRun(needingLibrary: pixbuf)))
    func clipped() async throws {
        try ToolRequirement.requireSharedLibrary(pixbuf, package: "libgdk-pixbuf-2.0-0")
        let options = [UNNotificationAttachmentOptionsThumbnailClippingRectKey: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5).dictionaryRepresentation]
        let attachment = try UNNotificationAttachment(identifier: "img", url: try gradient(), options: options)
        let fixture = try await GnomeFixture()
        try await fixture.post("clipped", attachments: [attachment])
        let icon = try #require(fixture.gtk.notification(of: Self.app, id: "clipped")?["icon"])
        guard case .structure(let fields) = icon, fields.count == 2, fields[0] == .string("bytes"), case .variant(.byteArray(let bytes)) = fields[1] else {
            Issue.record("not a bytes icon: \(icon)")
            await fixture.stop()
            return
        }
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let file = directory.url.appendingPathComponent("sent.png")
        try Data(bytes).write(to: file)
        let whole = try ThumbnailClippingRect(optionValue: CGRect(x: 0, y: 0, width: 1, height: 1).dictionaryRepresentation)
        #expect(ClippedThumbnail.render(fileAt: file.path, clippingTo: whole) == (try NotificationImage(
            width: 2, height: 2, rowStride: 6, hasAlpha: false, channels: 3,
            data: [10, 11, 200, 20, 11, 200, 10, 21, 200, 20, 21, 200])))
        await fixture.stop()
    }
}
