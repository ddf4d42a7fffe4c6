import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Attachments: an audio attachment is the default sound")
struct AttachmentSoundTests {
    let directory: TemporaryDirectory
    let voice: URL

    init() throws {
        directory = try TemporaryDirectory()
        voice = try directory.file(named: "voice.wav", header: FileHeader.wave + [UInt8](repeating: 0, count: 32))
    }

    func post(_ fixture: CenterFixture, sound: UNNotificationSound?) async throws {
        let content = UNMutableNotificationContent()
        content.title = "voice mail"
        content.sound = sound
        content.attachments = [try UNNotificationAttachment(identifier: "voice", url: voice)]
        try await fixture.center.add(UNNotificationRequest(identifier: "voice", content: content, trigger: nil))
    }

    @Test("the default sound with an audio attachment sends sound-file with the stored copy's path, and nothing else about sound")
    func golden() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try await post(fixture, sound: .default)
        let sent = try #require(fixture.server.notifications.first?.request)
        let stored = try #require(await fixture.center.deliveredNotifications().first?.request.content.attachments.first?.url)
        #expect(stored.path.hasPrefix(fixture.stateHome.appendingPathComponent("attachments").path))
        #expect(sent.hints.raw == [
            "desktop-entry": .string("org.example.CenterTests"),
            "urgency": .byte(1),
            "sound-file": .string(stored.path),
        ])
    }

    @Test("without the store the attachment's own file is played")
    func withoutStore() async throws {
        let fixture = try await CenterFixture()
        try await post(fixture, sound: .default)
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints.soundFile == voice.path)
        #expect(hints.soundName == nil)
    }

    @Test("a named sound wins over the attachment")
    func namedSoundWins() async throws {
        let fixture = try await CenterFixture()
        try await post(fixture, sound: UNNotificationSound(named: UNNotificationSoundName(rawValue: "bell")))
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints.soundName == "bell")
        #expect(hints.soundFile == nil)
    }

    @Test("no sound, or options without .sound, send suppress-sound only")
    func silence() async throws {
        let quiet = try await CenterFixture()
        try await post(quiet, sound: nil)
        let unsounded = try await CenterFixture()
        await MainActor.run { unsounded.delegate.options = [.banner, .list] }
        try await post(unsounded, sound: .default)
        for fixture in [quiet, unsounded] {
            let hints = try #require(fixture.server.notifications.first?.request.hints)
            #expect(hints.suppressSound == true)
            #expect(hints.soundFile == nil)
            #expect(hints.soundName == nil)
        }
    }

    @Test("an image attachment is not a sound: the theme's default plays")
    func imageIsNotASound() async throws {
        let fixture = try await CenterFixture()
        let content = UNMutableNotificationContent()
        content.title = "photo"
        content.sound = .default
        content.attachments = [try UNNotificationAttachment(identifier: "img", url: try directory.file(named: "p.png", header: FileHeader.png))]
        try await fixture.center.add(UNNotificationRequest(identifier: "photo", content: content, trigger: nil))
        let hints = try #require(fixture.server.notifications.first?.request.hints)
        #expect(hints.soundName == NotificationBridge.defaultSoundName)
        #expect(hints.soundFile == nil)
    }
}
