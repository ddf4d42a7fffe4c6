import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: icon and sound as sealed memory files (version 2)", .serialized)
struct PortalFileTests {
    let directory: TemporaryDirectory
    let image: URL
    let voice: URL

    init() throws {
        directory = try TemporaryDirectory()
        image = try directory.file(named: "avatar.png", header: FileHeader.png + (0..<3000).map { UInt8($0 % 251) })
        voice = try directory.file(named: "voice.wav", header: FileHeader.wave + (0..<5000).map { UInt8($0 % 241) })
    }

    func attachments() throws -> [UNNotificationAttachment] {
        [try UNNotificationAttachment(identifier: "voice", url: voice), try UNNotificationAttachment(identifier: "avatar", url: image)]
    }

    /// Whether `value` is `("file-descriptor", <h>)`.
    static func isDescriptor(_ value: DBusValue?) -> Bool {
        guard case .structure(let fields)? = value, fields.count == 2, fields[0] == .string("file-descriptor"),
              case .variant(.unixFileDescriptor) = fields[1] else { return false }
        return true
    }

    /// How many descriptors of this process are the engine's memory files.
    static func openMemoryFiles() -> Int {
        let folder = "/proc/self/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
            .filter { $0.hasPrefix("/memfd:desktopnotifications-") }.count
    }

    @Test("the image attachment is the icon and the audio attachment the default sound, sealed, with the files' bytes")
    func iconAndSound() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("a", attachments: try attachments())
        let added = try #require(fixture.portal.added.last?.notification)
        #expect(Self.isDescriptor(added["icon"]))
        #expect(Self.isDescriptor(added["sound"]))
        let files = fixture.portal.files
        #expect(files.map(\.key) == ["icon", "sound"])
        let icon = try #require(files.first { $0.key == "icon" })
        let sound = try #require(files.first { $0.key == "sound" })
        #expect(icon.seals == FakeNotificationPortal.requiredSeals)
        #expect(sound.seals == FakeNotificationPortal.requiredSeals)
        #expect(icon.bytes == [UInt8](try Data(contentsOf: image)))
        #expect(sound.bytes == [UInt8](try Data(contentsOf: voice)))
        #expect(icon.id == "a")
        await fixture.stop()
    }

    @Test("a named sound file is sent as its bytes; a sound by theme name is default; no sound is silent")
    func soundChoices() async throws {
        let fixture = try await PortalFixture()
        try await fixture.post("named", sound: UNNotificationSound(named: UNNotificationSoundName(rawValue: voice.path)))
        #expect(Self.isDescriptor(fixture.portal.added.last?.notification["sound"]))
        #expect(fixture.portal.files.last?.bytes == [UInt8](try Data(contentsOf: voice)))
        try await fixture.post("themed", sound: UNNotificationSound(named: UNNotificationSoundName(rawValue: "bell")))
        #expect(fixture.portal.added.last?.notification["sound"] == .string("default"))
        try await fixture.post("quiet", attachments: try attachments(), sound: nil)
        #expect(fixture.portal.added.last?.notification["sound"] == .string("silent"))
        #expect(fixture.portal.files.filter { $0.key == "sound" }.count == 1)
        await fixture.stop()
    }

    @Test("version 1 gets the themed app icon and no sound key, and no descriptor")
    func versionOne() async throws {
        let fixture = try await PortalFixture(version: 1)
        try await fixture.post("a", attachments: try attachments())
        let added = try #require(fixture.portal.added.last?.notification)
        #expect(added["icon"] == .structure([.string("themed"), .variant(.stringArray(["dialog-information"]))]))
        #expect(added["sound"] == nil)
        #expect(fixture.portal.files.isEmpty)
        await fixture.stop()
    }

    @Test("an image over the icon limit, or one that is gone, falls back to the themed app icon; a FIFO as the sound is not waited on")
    func tooLarge() async throws {
        let fixture = try await PortalFixture()
        let large = try directory.file(named: "large.png", header: FileHeader.png, size: PortalSealedFile.maximumIconBytes + 1)
        try await fixture.post("large", attachments: [try UNNotificationAttachment(identifier: "large", url: large)], sound: nil)
        let themed = DBusValue.structure([.string("themed"), .variant(.stringArray(["dialog-information"]))])
        #expect(fixture.portal.added.last?.notification["icon"] == themed)
        let gone = try directory.file(named: "gone.png", header: FileHeader.png)
        let attachment = try UNNotificationAttachment(identifier: "gone", url: gone)
        try FileManager.default.removeItem(at: gone)
        try await fixture.post("gone", attachments: [attachment], sound: nil)
        #expect(fixture.portal.added.last?.notification["icon"] == themed)
        #expect(fixture.portal.files.isEmpty)
        #expect(throws: PortalSealedFile.Failure.tooLarge(path: large.path, limit: PortalSealedFile.maximumIconBytes)) {
            try PortalSealedFile.read(large, limit: PortalSealedFile.maximumIconBytes)
        }
        // A FIFO is refused at once, never waited on.
        let fifo = directory.url.appendingPathComponent("sound.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: PortalSealedFile.Failure.unreadable(path: fifo.path, reason: "not a regular file")) {
            try PortalSealedFile.read(fifo, limit: PortalSealedFile.maximumSoundBytes)
        }
        try await fixture.post("fifo", sound: UNNotificationSound(named: UNNotificationSoundName(rawValue: fifo.path)))
        #expect(fixture.portal.added.last?.notification["sound"] == .string("default"))
        await fixture.stop()
    }

    @Test("500 posts with an icon and a sound leave no descriptor open in the app or the portal")
    func noLeaks() async throws {
        let fixture = try await PortalFixture()
        let attachments = try attachments()
        try await fixture.post("warm-up", attachments: attachments)
        #expect(await eventually { Self.openMemoryFiles() == 0 })
        let before = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        for index in 0..<500 {
            try await fixture.post("n\(index % 7)", attachments: attachments)
        }
        #expect(fixture.portal.files.count == 2 * 501)
        #expect(fixture.portal.files.allSatisfy { $0.seals == FakeNotificationPortal.requiredSeals && !$0.bytes.isEmpty })
        #expect(await eventually { Self.openMemoryFiles() == 0 })
        let after = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        // Other suites open and close descriptors meanwhile; 1,000 leaked would show far above that.
        #expect(after < before + 100, "descriptors: \(before) before, \(after) after")
        await fixture.stop()
    }
}
