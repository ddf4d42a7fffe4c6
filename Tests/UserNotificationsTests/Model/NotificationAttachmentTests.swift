import Foundation
import Synchronization
import Testing
@testable import UserNotifications

@Suite("UNNotificationAttachment")
struct NotificationAttachmentTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test(arguments: [
        ("photo.png", FileHeader.png, "public.png"),
        ("photo.JPG", FileHeader.jpeg, "public.jpeg"),
        ("anim.gif", FileHeader.gif, "com.compuserve.gif"),
        ("voice.wav", FileHeader.wave, "com.microsoft.waveform-audio"),
        ("song.mp3", FileHeader.mp3, "public.mp3"),
        ("voice.m4a", FileHeader.m4a, "public.mpeg-4-audio"),
        ("clip.mp4", FileHeader.mp4, "public.mpeg-4"),
        ("clip.avi", FileHeader.avi, "public.avi"),
    ])
    func typeComesFromTheFileNameExtension(name: String, header: [UInt8], type: String) throws {
        let url = try directory.file(named: name, header: header)
        let attachment = try UNNotificationAttachment(identifier: "a", url: url, options: nil)
        #expect(attachment.type == type)
        #expect(attachment.identifier == "a")
        #expect(attachment.url == url)
    }

    @Test(arguments: ["public.png", "image/png", "IMAGE/PNG"])
    func typeHintAcceptsUTIsAndMIMETypes(hint: String) throws {
        let url = try directory.file(named: "download.bin", header: FileHeader.png)
        let attachment = try UNNotificationAttachment(identifier: "a", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: hint])
        #expect(attachment.type == "public.png")
    }

    @Test func typeHintWinsOverTheExtension() throws {
        let url = try directory.file(named: "misnamed.jpg", header: FileHeader.png)
        let attachment = try UNNotificationAttachment(identifier: "a", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.png"])
        #expect(attachment.type == "public.png")
    }

    @Test(arguments: [(FileHeader.png, "public.png"), (FileHeader.m4a, "public.mpeg-4-audio"), (FileHeader.mp4, "public.mpeg-4")])
    func withoutExtensionOrHintTheContentDecides(header: [UInt8], type: String) throws {
        let url = try directory.file(named: "download", header: header)
        #expect(try UNNotificationAttachment(identifier: "a", url: url).type == type)
    }

    @Test func emptyIdentifierGetsAUniqueOne() throws {
        let url = try directory.file(named: "photo.png", header: FileHeader.png)
        let first = try UNNotificationAttachment(identifier: "", url: url)
        let second = try UNNotificationAttachment(identifier: "", url: url)
        #expect(!first.identifier.isEmpty)
        #expect(first.identifier != second.identifier)
    }

    @Test func thumbnailHiddenOptionIsKeptForTheBridge() throws {
        let url = try directory.file(named: "photo.png", header: FileHeader.png)
        #expect(try UNNotificationAttachment(identifier: "a", url: url, options: [UNNotificationAttachmentOptionsThumbnailHiddenKey: true]).isThumbnailHidden)
        #expect(try !UNNotificationAttachment(identifier: "a", url: url).isThumbnailHidden)
    }

    @Test func remoteURLIsAnInvalidURL() {
        let error = #expect(throws: UNError.self) {
            try UNNotificationAttachment(identifier: "a", url: URL(string: "https://example.com/image.jpg")!)
        }
        #expect(error?.code == .attachmentInvalidURL)
        #expect(error?.localizedDescription.contains("https://example.com/image.jpg") == true)
    }

    @Test func missingFileIsAnInvalidURL() {
        let missing = directory.url.appendingPathComponent("missing.png")
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: missing) }
        #expect(error?.code == .attachmentInvalidURL)
    }

    @Test func directoryIsAnInvalidURL() {
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: directory.url) }
        #expect(error?.code == .attachmentInvalidURL)
    }

    @Test func fifoIsAnInvalidURLAndNeverWaitsForAWriter() throws {
        let fifo = directory.url.appendingPathComponent("pipe.png")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let code = try Self.attachmentErrorCode(url: fifo, within: .seconds(5))
        #expect(code == .attachmentInvalidURL)
    }

    /// The code of the error `UNNotificationAttachment.init` throws for `url`. An init still
    /// running after `limit` is a failure: the test then opens the FIFO for writing once, which
    /// lets a reader stuck in `open` go on, so the test fails instead of hanging.
    private static func attachmentErrorCode(url: URL, within limit: Duration) throws -> UNError.Code? {
        let outcome = Mutex<UNError.Code??>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let code: UNError.Code?
            do {
                _ = try UNNotificationAttachment(identifier: "a", url: url)
                code = nil
            } catch {
                code = (error as? UNError)?.code
            }
            outcome.withLock { $0 = .some(code) }
            finished.signal()
        }
        let seconds = Double(limit.components.seconds)
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            Issue.record("UNNotificationAttachment.init was still waiting on \(url.path) after \(limit)")
            while finished.wait(timeout: .now() + 0.1) == .timedOut {
                let writer = open(url.path, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            }
        }
        return try #require(outcome.withLock { $0 })
    }

    @Test func unknownExtensionAndContentIsUnrecognized() throws {
        let url = try directory.file(named: "notes.txt", header: FileHeader.text)
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentUnrecognizedType)
    }

    @Test(arguments: ["public.plain-text", "text/plain"])
    func unsupportedTypeHintIsUnrecognized(hint: String) throws {
        let url = try directory.file(named: "photo.png", header: FileHeader.png)
        let error = #expect(throws: UNError.self) {
            try UNNotificationAttachment(identifier: "a", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: hint])
        }
        #expect(error?.code == .attachmentUnrecognizedType)
    }

    @Test func emptyFileHasAnInvalidSize() throws {
        let url = try directory.file(named: "empty.png", header: [])
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentInvalidFileSize)
    }

    @Test(arguments: [("big.png", FileHeader.png, 10 << 20), ("big.mp3", FileHeader.mp3, 5 << 20), ("big.mp4", FileHeader.mp4, 50 << 20)])
    func eachKindMayReachItsLimitButNotExceedIt(name: String, header: [UInt8], limit: Int) throws {
        let atLimit = try directory.file(named: "limit-\(name)", header: header, size: limit)
        _ = try UNNotificationAttachment(identifier: "a", url: atLimit)

        let overLimit = try directory.file(named: name, header: header, size: limit + 1)
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: overLimit) }
        #expect(error?.code == .attachmentInvalidFileSize)
    }

    @Test func contentThatDoesNotFitTheTypeIsCorrupt() throws {
        let url = try directory.file(named: "photo.png", header: FileHeader.text)
        let error = #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: url) }
        #expect(error?.code == .attachmentCorrupt)
    }

    @Test func equalAttachmentsAreEqualAndSurviveSecureCoding() throws {
        let url = try directory.file(named: "photo.png", header: FileHeader.png)
        let attachment = try UNNotificationAttachment(identifier: "a", url: url)
        #expect(attachment == UNNotificationAttachment(identifier: "a", url: url, type: "public.png"))
        #expect(try secureCodingRoundTrip(attachment) == attachment)
    }
}
