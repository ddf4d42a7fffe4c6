import Foundation
import FreedesktopNotifications
import Logging
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// Which sounds this process plays itself (``EventSound``), the passive rule of the bridge,
/// the desktop's event-sound settings and a missing libcanberra: no sound server needed.
@Suite("Sounds the server does not play: the decision, the settings, no libcanberra")
struct EventSoundDecisionTests {
    static let withoutSound: Set<NotificationCapability> = [.actions, .body]
    static let withSound: Set<NotificationCapability> = [.actions, .body, .sound]

    @Test("a server without `sound` gets the theme name or file played here; one with `sound` plays it itself")
    func decision() {
        var themed = NotificationHints()
        themed.soundName = "message-new-instant"
        #expect(EventSound(hints: themed, capabilities: Self.withoutSound) == .themed("message-new-instant"))
        #expect(EventSound(hints: themed, capabilities: Self.withSound) == nil)
        var file = NotificationHints()
        file.soundFile = "/usr/share/sounds/freedesktop/stereo/bell.oga"
        #expect(EventSound(hints: file, capabilities: Self.withoutSound) == .file("/usr/share/sounds/freedesktop/stereo/bell.oga"))
        var silent = NotificationHints()
        silent.suppressSound = true
        #expect(EventSound(hints: silent, capabilities: Self.withoutSound) == nil)
        #expect(EventSound(hints: NotificationHints(), capabilities: Self.withoutSound) == nil)
    }

    @Test("what the bridge sends decides: default, named, silent, no .sound option, passive, critical")
    func fromBridge() {
        let bridge = NotificationBridge(
            identity: ApplicationIdentity(id: "org.example.Sound", displayName: "Sound"), capabilities: Self.withoutSound)
        func sound(_ configure: (UNMutableNotificationContent) -> Void, options: UNNotificationPresentationOptions = [.banner, .sound]) -> EventSound? {
            let content = UNMutableNotificationContent()
            content.title = "t"
            configure(content)
            let request = UNNotificationRequest(identifier: "s", content: content, trigger: nil)
            let arguments = bridge.notifyRequest(for: request, category: nil, options: options, replacesID: 0)
            return EventSound(hints: arguments.hints, capabilities: bridge.capabilities)
        }
        #expect(sound { $0.sound = .default } == .themed(NotificationBridge.defaultSoundName))
        #expect(sound { $0.sound = UNNotificationSound(named: UNNotificationSoundName("complete")) } == .themed("complete"))
        #expect(sound { $0.sound = nil } == nil)
        #expect(sound({ $0.sound = .default }, options: [.banner]) == nil)
        #expect(sound { content in
            content.sound = .defaultCritical
            content.interruptionLevel = .critical
        } == .themed(NotificationBridge.defaultSoundName))
    }

    @Test("for a service that plays none (GNOME's interface, the portal before version 2), the sound a Notify would carry")
    func fromContent() throws {
        let bridge = NotificationBridge(
            identity: ApplicationIdentity(id: "org.example.Sound", displayName: "Sound"), capabilities: Self.withoutSound)
        let folder = try TemporaryDirectory()
        let voice = try folder.file(named: "voice.wav", header: FileHeader.wave + [UInt8](repeating: 1, count: 64))
        let cases: [(String, (UNMutableNotificationContent) throws -> Void, UNNotificationPresentationOptions)] = [
            ("default", { $0.sound = .default }, [.banner, .sound]),
            ("audio attachment", { content in
                content.sound = .default
                content.attachments = [try UNNotificationAttachment(identifier: "voice", url: voice)]
            }, [.banner, .sound]),
            ("named file", { $0.sound = UNNotificationSound(named: UNNotificationSoundName(voice.path)) }, [.banner, .sound]),
            ("named", { $0.sound = UNNotificationSound(named: UNNotificationSoundName("complete")) }, [.banner, .sound]),
            ("none", { $0.sound = nil }, [.banner, .sound]),
            ("no .sound option", { $0.sound = .default }, [.banner]),
            ("passive", { content in
                content.sound = .default
                content.interruptionLevel = .passive
            }, [.banner, .sound]),
        ]
        var played: [EventSound?] = []
        for (name, configure, options) in cases {
            let content = UNMutableNotificationContent()
            content.title = name
            try configure(content)
            let request = UNNotificationRequest(identifier: "s", content: content, trigger: nil)
            let viaNotify = EventSound(hints: bridge.notifyRequest(for: request, category: nil, options: options, replacesID: 0).hints, capabilities: [])
            let fromContent = EventSound(content: content, options: options)
            #expect(fromContent == viaNotify, "\(name)")
            played.append(fromContent)
        }
        #expect(played == [
            .themed(NotificationBridge.defaultSoundName), .file(voice.path), .file(voice.path), .themed("complete"), nil, nil, nil,
        ])
    }

    @Test("a passive request asks every server for silence, as Apple delivers it without a sound")
    func passiveIsSilent() {
        let bridge = NotificationBridge(
            identity: ApplicationIdentity(id: "org.example.Sound", displayName: "Sound"), capabilities: Self.withSound)
        let content = UNMutableNotificationContent()
        content.title = "quiet"
        content.sound = .default
        content.interruptionLevel = .passive
        let request = UNNotificationRequest(identifier: "p", content: content, trigger: nil)
        let hints = bridge.notifyRequest(for: request, category: nil, options: [.banner, .sound], replacesID: 0).hints
        #expect(hints.suppressSound == true)
        #expect(hints.soundName == nil)
        #expect(hints.urgency == .low)
    }

    @Test("event-sounds and theme-name are read from GSettings (org.gnome.desktop.sound)")
    func settings() throws {
        try ToolRequirement.requireDataFile(
            "/usr/share/glib-2.0/schemas/org.gnome.desktop.sound.gschema.xml", package: "gsettings-desktop-schemas")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("event-sound-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let off = folder.appendingPathComponent("off")
        try "[org/gnome/desktop/sound]\nevent-sounds=false\ntheme-name='ocean'\n".write(to: off, atomically: true, encoding: .utf8)
        #expect(EventSoundSettings.current(keyfile: off.path) == EventSoundSettings(isEnabled: false, themeName: "ocean"))
        let unset = folder.appendingPathComponent("unset")
        try "".write(to: unset, atomically: true, encoding: .utf8)
        #expect(EventSoundSettings.current(keyfile: unset.path) == EventSoundSettings(isEnabled: true, themeName: "freedesktop"))
    }

    @Test("without libcanberra the sound is not played and the log says why, once as a warning; nothing traps")
    func missingLibrary() async {
        #expect(CanberraLibrary.load("libcanberra-not-installed.so.0") == nil)
        let log = LogRecorder()
        let player = EventSoundPlayer(library: nil, logger: log.logger(label: "test"), settings: { .unset })
        player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "first")
        player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "second")
        await player.settle()
        let entries = log.entries
        #expect(entries.map(\.level) == [.warning, .debug])
        #expect(entries.allSatisfy { $0.message.contains("libcanberra") && $0.message.contains("not installed") })
        #expect(entries.map { $0.metadata["identifier"]?.description } == ["first", "second"])
    }
}

