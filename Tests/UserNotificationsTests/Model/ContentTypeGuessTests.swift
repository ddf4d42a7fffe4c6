import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// GIO sniffs with shared-mime-info's database; without GLib (and without
/// DESKTOPNOTIFICATIONS_REQUIRE_TOOLS=1) these tests stand down, with it required they fail
/// naming the package.
@Suite("Attachments: GIO recognises content our signatures do not", .enabled(if: ToolRequirement.canRun(needingLibrary: "libgio-2.0.so.0")))
struct ContentTypeGuessTests {
    let directory: TemporaryDirectory

    init() throws {
        try ToolRequirement.requireSharedLibrary("libgio-2.0.so.0", package: "libglib2.0-0")
        try ToolRequirement.requireDataFile("/usr/share/mime/magic", package: "shared-mime-info")
        directory = try TemporaryDirectory()
    }

    /// An AVI variant that starts `AVF0` instead of `RIFF`: our signatures do not know it,
    /// shared-mime-info does.
    static let avf0: [UInt8] = Array("AVF0".utf8) + [0x24, 0, 0, 0] + Array("AVI LIST".utf8) + [UInt8](repeating: 0, count: 52)
    /// An MPEG stream starting `47 3F FF 10`, which shared-mime-info lists as video/mpeg.
    static let mpegPacket: [UInt8] = [0x47, 0x3F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 60)

    @Test("GIO names the MIME type of content it is sure of, and nothing for noise")
    func sniffing() {
        #expect(GIOContentType.mimeType(sniffing: Self.avf0) == "video/x-msvideo")
        #expect(GIOContentType.mimeType(sniffing: Self.mpegPacket) == "video/mpeg")
        #expect(GIOContentType.mimeType(sniffing: Array("plain words".utf8)) == "text/plain")
        #expect(GIOContentType.mimeType(sniffing: [0x00, 0x01, 0x02, 0xC8, 0xC9, 0xFE]) == nil)
        #expect(GIOContentType.mimeType(sniffing: []) == nil)
    }

    @Test("a file without extension whose bytes only GIO knows gets GIO's type", arguments: [
        (ContentTypeGuessTests.avf0, "public.avi"), (ContentTypeGuessTests.mpegPacket, "public.mpeg"),
    ])
    func recognisedThroughGIO(bytes: [UInt8], type: String) throws {
        #expect(AttachmentFileType.recognizing(header: Data(bytes.prefix(AttachmentFileType.headerLength))) == nil)
        let url = try directory.file(named: "download", header: bytes)
        let attachment = try UNNotificationAttachment(identifier: "a", url: url)
        #expect(attachment.type == type)
    }

    @Test("GIO's type still has its kind's size limit")
    func sizeLimit() throws {
        let url = try directory.file(named: "huge", header: Self.avf0, size: (50 << 20) + 1)
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentInvalidFileSize)
    }

    @Test("GIO's types that are not audio, image or movie stay unrecognized")
    func otherTypes() throws {
        let url = try directory.file(named: "README", header: Array("just some words".utf8))
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentUnrecognizedType)
    }

    @Test("GIO judges the bytes, not the name: an extension only GIO knows does not vouch for text")
    func nameIsNotEnough() throws {
        let url = try directory.file(named: "clip.m4v", header: Array("not a movie at all".utf8))
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentUnrecognizedType)
    }
}
