import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationAttachment: the thumbnail clipping rectangle option")
struct ThumbnailClippingOptionTests {
    let directory: TemporaryDirectory
    let image: URL

    init() throws {
        directory = try TemporaryDirectory()
        image = try directory.file(named: "photo.png", header: FileHeader.png)
    }

    func attachment(clipping value: Any) throws -> UNNotificationAttachment {
        try UNNotificationAttachment(identifier: "a", url: image, options: [UNNotificationAttachmentOptionsThumbnailClippingRectKey: value])
    }

    static let middle = ThumbnailClippingRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)

    @Test("Apple's form, a CGRect's dictionary representation, is read")
    func dictionary() throws {
        let rect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        #expect(try attachment(clipping: rect.dictionaryRepresentation).thumbnailClippingRect == Self.middle)
        let literal: [String: Any] = ["X": 0.25, "Y": 0.25, "Width": 0.5, "Height": 0.5]
        #expect(try attachment(clipping: literal).thumbnailClippingRect == Self.middle)
        let numbers: [String: NSNumber] = ["X": 0.25, "Y": 0.25, "Width": 0.5, "Height": 0.5]
        #expect(try attachment(clipping: numbers as NSDictionary).thumbnailClippingRect == Self.middle)
    }

    @Test("a CGRect, or an NSValue holding one, is read too (Linux addition)")
    func rectValues() throws {
        let rect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        #expect(try attachment(clipping: rect).thumbnailClippingRect == Self.middle)
        #expect(try attachment(clipping: NSValue(rect: rect)).thumbnailClippingRect == Self.middle)
    }

    @Test("dictionaryRepresentation has CoreGraphics's keys")
    func dictionaryRepresentationKeys() {
        let dictionary = CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4).dictionaryRepresentation
        #expect(dictionary["X"] as? NSNumber == 0.1)
        #expect(dictionary["Y"] as? NSNumber == 0.2)
        #expect(dictionary["Width"] as? NSNumber == 0.3)
        #expect(dictionary["Height"] as? NSNumber == 0.4)
    }

    @Test(
        "a rectangle outside 0...1, without area or not finite is attachmentCorrupt",
        arguments: [
            CGRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
            CGRect(x: 0, y: 0, width: 1.5, height: 0.5),
            CGRect(x: 0.6, y: 0.6, width: 0.5, height: 0.3),
            CGRect(x: 0, y: 0, width: 0, height: 0.5),
            CGRect(x: 0, y: 0, width: 0.5, height: -0.5),
            CGRect(x: .nan, y: 0, width: 0.5, height: 0.5),
            CGRect(x: 0, y: 0, width: .infinity, height: 0.5),
        ])
    func invalidRectangles(rect: CGRect) {
        for value: Any in [rect, rect.dictionaryRepresentation] {
            let error = #expect(throws: UNError.self) { try attachment(clipping: value) }
            #expect(error?.code == .attachmentCorrupt)
            #expect(error?.localizedDescription.contains("clipping rectangle") == true)
        }
    }

    @Test("a value that is not a rectangle is attachmentCorrupt")
    func notARectangle() {
        let values: [Any] = ["0.25,0.25,0.5,0.5", ["X": 0.25, "Y": 0.25, "Width": 0.5] as [String: Any], NSNumber(value: 1)]
        for value in values {
            let error = #expect(throws: UNError.self) { try attachment(clipping: value) }
            #expect(error?.code == .attachmentCorrupt)
        }
    }

    @Test("edges that round past 1 are accepted; the whole image clips nothing")
    func edges() throws {
        let width = 0.9.nextUp
        try #require(0.1 + width > 1)
        let rounded = try attachment(clipping: CGRect(x: 0.1, y: 0, width: width, height: 1))
        #expect(rounded.thumbnailClippingRect != nil)
        #expect(try attachment(clipping: CGRect(x: 0, y: 0, width: 1, height: 1)).thumbnailClippingRect?.isWholeImage == true)
        #expect(Self.middle.isWholeImage == false)
    }

    @Test("pixel regions cover every pixel the rectangle touches, and at least one")
    func pixelRegions() {
        #expect(Self.middle.pixelRegion(imageWidth: 4, imageHeight: 4) == (1, 1, 2, 2))
        #expect(Self.middle.pixelRegion(imageWidth: 3, imageHeight: 5) == (0, 1, 3, 3))
        let sliver = ThumbnailClippingRect(x: 0.5, y: 0.5, width: 0.0001, height: 0.0001)
        #expect(sliver.pixelRegion(imageWidth: 10, imageHeight: 10) == (5, 5, 1, 1))
        let whole = ThumbnailClippingRect(x: 0, y: 0, width: 1, height: 1)
        #expect(whole.pixelRegion(imageWidth: 7, imageHeight: 3) == (0, 0, 7, 3))
    }

    @Test("the rectangle is part of equality and survives secure coding and the store's snapshot")
    func kept() throws {
        let clipped = try attachment(clipping: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        let plain = try UNNotificationAttachment(identifier: "a", url: image)
        #expect(clipped != plain)
        #expect(try secureCodingRoundTrip(clipped) == clipped)
        let restored = try jsonRoundTrip(NotificationAttachmentSnapshot(clipped)).makeAttachment()
        #expect(restored.thumbnailClippingRect == Self.middle)
        #expect(restored == clipped)
    }
}
