import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// gdk-pixbuf decodes the images; without it (and without DESKTOPNOTIFICATIONS_REQUIRE_TOOLS=1)
/// these tests stand down, with it required they fail naming the package.
private let pixbuf = "libgdk_pixbuf-2.0.so.0"
private let pixbufPackage = "libgdk-pixbuf-2.0-0"

@Suite("Attachments: a clipping rectangle sends the clipped pixels as image-data", .enabled(if: ToolRequirement.canRun(needingLibrary: pixbuf)))
struct AttachmentClippingTests {
    let directory: TemporaryDirectory

    init() throws {
        try ToolRequirement.requireSharedLibrary(pixbuf, package: pixbufPackage)
        directory = try TemporaryDirectory()
    }

    /// A 4 × 4 RGB image whose pixel (x, y) is (10x, 10y + 1, 200).
    func gradient(named name: String = "gradient.png") throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try PNGFile.write(to: url, width: 4, height: 4) { x, y in [UInt8(10 * x), UInt8(10 * y + 1), 200] }
        return url
    }

    func post(_ fixture: CenterFixture, image: URL, clipping rect: CGRect?, trigger: UNNotificationTrigger? = nil) async throws {
        let content = UNMutableNotificationContent()
        content.title = "clipped"
        let options = rect.map { [UNNotificationAttachmentOptionsThumbnailClippingRectKey: $0.dictionaryRepresentation] }
        content.attachments = [try UNNotificationAttachment(identifier: "img", url: image, options: options)]
        try await fixture.center.add(UNNotificationRequest(identifier: "clipped", content: content, trigger: trigger))
    }

    static let middle = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)

    @Test("the middle of a 4 × 4 RGB image: 2 × 2, stride 6, no alpha, the exact pixels, no image-path")
    func rgbGolden() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try await post(fixture, image: try gradient(), clipping: Self.middle)
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints[raw: "image-data"] == .structure([
            .int32(2), .int32(2), .int32(6), .boolean(false), .int32(8), .int32(3),
            .byteArray([10, 11, 200, 20, 11, 200, 10, 21, 200, 20, 21, 200]),
        ]))
        #expect(hints.imagePath == nil)
    }

    @Test("an RGBA image keeps its alpha: 2 × 1 from the bottom row, stride 8")
    func rgbaGolden() async throws {
        let url = directory.url.appendingPathComponent("alpha.png")
        try PNGFile.write(to: url, width: 3, height: 2) { x, y in [UInt8(x), UInt8(y), 7, UInt8(100 + 50 * x)] }
        let fixture = try await CenterFixture()
        try await post(fixture, image: url, clipping: CGRect(x: 0, y: 0.5, width: 2.0 / 3.0, height: 0.5))
        let image = try #require(fixture.server.notifications.first?.request.hints.image)
        #expect(image == (try NotificationImage(
            width: 2, height: 1, rowStride: 8, hasAlpha: true, channels: 4, data: [0, 1, 7, 100, 1, 1, 7, 150])))
    }

    @Test("the pixels are decoded when the file is copied into the store, not at delivery")
    func decodedWhenStored() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let original = try gradient()
        try await post(fixture, image: original, clipping: Self.middle, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        let stored = try #require(await fixture.center.pendingNotificationRequests().first?.content.attachments.first?.url)
        #expect(stored != original)
        // With both files gone, only pixels decoded at add time can reach the server.
        try FileManager.default.removeItem(at: original)
        try FileManager.default.removeItem(at: stored)
        fixture.clock.advance(by: 60)
        #expect(await fixture.server.waitForNotify() != nil)
        #expect(fixture.server.notifications.first?.request.hints.image?.data == [10, 11, 200, 20, 11, 200, 10, 21, 200, 20, 21, 200])
    }

    @Test("after a restart the rectangle is still known and the image is clipped when it fires")
    func acrossRestart() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try await post(fixture, image: try gradient(), clipping: Self.middle, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false))
        let saved = fixture.stateHome.appendingPathComponent("notifications.json")
        #expect(await eventually { ((try? String(contentsOf: saved, encoding: .utf8)) ?? "").contains("thumbnailClippingRect") })
        // The next launch comes after the due time: the restored request fires at once, there.
        let later = TestNotificationClock(now: fixture.clock.now.addingTimeInterval(1000))
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: later, persistent: true, stateHome: fixture.stateHome)
        _ = await relaunched.notificationCategories()
        #expect(await fixture.server.waitForNotify() != nil)
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints.image?.width == 2)
        #expect(hints.image?.height == 2)
        #expect(hints.imagePath == nil)
    }

    @Test("the whole image, or no rectangle, is sent as its file (image-path)", arguments: [CGRect(x: 0, y: 0, width: 1, height: 1), nil])
    func wholeImage(rect: CGRect?) async throws {
        let fixture = try await CenterFixture()
        try await post(fixture, image: try gradient(), clipping: rect)
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints.imagePath?.hasPrefix("file://") == true)
        #expect(hints[raw: "image-data"] == nil)
    }

    @Test("a file gdk-pixbuf cannot decode falls back to the whole image's file")
    func undecodable() async throws {
        let broken = try directory.file(named: "broken.png", header: FileHeader.png + [UInt8](repeating: 0x55, count: 64))
        let fixture = try await CenterFixture()
        try await post(fixture, image: broken, clipping: Self.middle)
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints[raw: "image-data"] == nil)
        #expect(hints.imagePath == broken.absoluteString)
    }

    @Test("a hidden thumbnail is not sent, clipped or not")
    func hidden() async throws {
        let fixture = try await CenterFixture()
        let content = UNMutableNotificationContent()
        content.title = "hidden"
        content.attachments = [try UNNotificationAttachment(identifier: "img", url: try gradient(), options: [
            UNNotificationAttachmentOptionsThumbnailClippingRectKey: Self.middle.dictionaryRepresentation,
            UNNotificationAttachmentOptionsThumbnailHiddenKey: true,
        ])]
        try await fixture.center.add(UNNotificationRequest(identifier: "hidden", content: content, trigger: nil))
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints[raw: "image-data"] == nil)
        #expect(hints.imagePath == nil)
    }

    @Test("a large clip is scaled down to fit the byte budget, keeping its proportions")
    func scaledDown() throws {
        let url = directory.url.appendingPathComponent("big.png")
        try PNGFile.write(to: url, width: 16, height: 8) { x, _ in [UInt8(x * 16), 0, 0] }
        let whole = ThumbnailClippingRect(x: 0, y: 0, width: 1, height: 1)
        let image = try #require(ClippedThumbnail.render(fileAt: url.path, clippingTo: whole, maximumBytes: 100))
        #expect((image.width, image.height) == (8, 4))
        #expect(image.data.count == 96)
        #expect(image.rowStride == 24)
        #expect(ClippedThumbnail.fittedSize(width: 1, height: 100_000, channels: 4, maximumBytes: 400) == (1, 100))
        #expect(ClippedThumbnail.fittedSize(width: 10, height: 10, channels: 3, maximumBytes: 300) == (10, 10))
        #expect(ClippedThumbnail.maximumBytes <= NotificationLimits().imageBytes)
    }
}
