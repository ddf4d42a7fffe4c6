import Foundation
import Logging
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// libcanberra playing on a private PulseAudio server with a null sink: a sound is one
/// playback stream on it. libcanberra finds the server through `PULSE_SERVER`, which only the
/// process's environment carries, so these tests set it for their duration and run one at a
/// time, with the real desktops (the Makefile's REAL_DESKTOPS).
@Suite("Sounds played here: libcanberra on a private PulseAudio server", .serialized)
struct EventSoundPlaybackTests {
    @Test("a theme sound and a sound file each start one stream; a name the theme lacks starts none and is logged")
    func plays() async throws {
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            let log = LogRecorder()
            let library = try #require(CanberraLibrary.shared, "libcanberra0 is installed (make deps)")
            let player = EventSoundPlayer(library: library, logger: log.logger(label: "test"), settings: { .unset })
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "themed")
            #expect(try await pulse.waitForStreams(count: 1) == 1)
            player.play(.file("/usr/share/sounds/freedesktop/stereo/bell.oga"), appID: "org.example.Sound", identifier: "file")
            #expect(try await pulse.waitForStreams(count: 2) == 2)
            player.play(.themed("no-such-sound-in-any-theme"), appID: "org.example.Sound", identifier: "missing")
            await player.settle()
            try await Task.sleep(for: .seconds(1))
            #expect(pulse.streamsStarted == 2)
            #expect(log.entries.contains { $0.level == .error && $0.metadata["identifier"]?.description == "missing" })
            #expect(!log.entries.contains { $0.metadata["identifier"]?.description != "missing" })
        }
    }

    @Test("a sound file that is a FIFO is not opened: the queue goes on to the next sound")
    func fifoFile() async throws {
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            let log = LogRecorder()
            let library = try #require(CanberraLibrary.shared, "libcanberra0 is installed (make deps)")
            let player = EventSoundPlayer(library: library, logger: log.logger(label: "test"), settings: { .unset })
            let folder = try TemporaryDirectory()
            let fifo = folder.url.appendingPathComponent("ding.oga").path
            #expect(mkfifo(fifo, 0o600) == 0)
            player.play(.file(fifo), appID: "org.example.Sound", identifier: "fifo")
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "after")
            #expect(try await pulse.waitForStreams(count: 1) == 1)
            #expect(log.entries.contains { $0.level == .error && $0.metadata["identifier"]?.description == "fifo" })
        }
    }

    @Test("the desktop's event-sounds off plays nothing, and says so in the log")
    func eventSoundsOff() async throws {
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            let log = LogRecorder()
            let library = try #require(CanberraLibrary.shared, "libcanberra0 is installed (make deps)")
            let enabled = LockedFlag(false)
            let player = EventSoundPlayer(library: library, logger: log.logger(label: "test")) {
                EventSoundSettings(isEnabled: enabled.value, themeName: "freedesktop")
            }
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "off")
            await player.settle()
            try await Task.sleep(for: .seconds(1))
            #expect(pulse.streamsStarted == 0)
            #expect(log.entries.contains { $0.message.contains("event-sounds") && $0.metadata["identifier"]?.description == "off" })
            // The same player plays once the setting is on again: the check above could fail.
            enabled.value = true
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "on")
            #expect(try await pulse.waitForStreams(count: 1) == 1)
        }
    }

    @Test("a sound server that went away is left for the next one: the sound after it plays on the new server")
    func newServer() async throws {
        let library = try #require(CanberraLibrary.shared, "libcanberra0 is installed (make deps)")
        let log = LogRecorder()
        let player = EventSoundPlayer(library: library, logger: log.logger(label: "test"), settings: { .unset })
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "first")
            #expect(try await pulse.waitForStreams(count: 1) == 1)
            // The server has the stream before libcanberra has seen it ready: stopping the server
            // before `play` returned would fail this sound, not show the next one.
            await player.settle()
        }
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "second")
            #expect(try await pulse.waitForStreams(count: 1) == 1)
            await player.settle()
        }
        #expect(!log.entries.contains { $0.level == .error }, "\(log.entries.map { "\($0.level) \($0.message) \($0.metadata)" })")
    }
}

extension EventSoundPlaybackTests {
    /// A request with the default sound, or none.
    static func request(_ identifier: String, sound: UNNotificationSound? = .default) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sound \(identifier)"
        content.sound = sound
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    /// Waits for the shared player's sounds, then gives a stream that would start late a second.
    static func settled(_ pulse: PulseAudioServer) async throws -> Int {
        await EventSoundPlayer.shared.settle()
        try await Task.sleep(for: .seconds(1))
        return pulse.streamsStarted
    }

    @Test("GNOME's interface and the portal before version 2 play no sound: the center plays each delivery's; to version 2 it plays none")
    func serviceEngines() async throws {
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            let gnome = try await GnomeFixture()
            try await gnome.center.add(Self.request("a"))
            #expect(try await pulse.waitForStreams(count: 1) == 1)
            // An update in place plays again, as every delivery does.
            try await gnome.center.add(Self.request("a"))
            #expect(try await pulse.waitForStreams(count: 2) == 2)
            try await gnome.center.add(Self.request("quiet", sound: nil))
            #expect(try await Self.settled(pulse) == 2, "a request without a sound plays none")
            await gnome.stop()

            let version1 = try await PortalFixture(version: 1)
            try await version1.post("b")
            #expect(try await pulse.waitForStreams(count: 3) == 3)
            await version1.stop()

            let version2 = try await PortalFixture(version: 2)
            try await version2.post("c")
            #expect(version2.portal.added.last?.notification["sound"] == .string("default"), "the portal plays it")
            #expect(try await Self.settled(pulse) == 3, "the center plays none for version 2")
            await version2.stop()
        }
    }

    @Test("a version 2 portal restarted as version 1: the center asks again, and plays the sounds from then on")
    func portalRestarted() async throws {
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            let fixture = try await PortalFixture(version: 2)
            try await fixture.post("before")
            #expect(try await Self.settled(pulse) == 0, "version 2 plays it")
            await fixture.portal.stop()
            let restarted = try await FakeNotificationPortal.start(on: fixture.testBus.bus, version: 1)
            // Once the restart was taken, what the portal supports is read again (the posts
            // before may still go as version 2's), and the next post's sound is the center's.
            #expect(await eventually(timeout: .seconds(10)) {
                try? await fixture.post("probe", sound: nil)
                return restarted.added.last?.notification["markup-body"] == nil
            })
            let before = try await Self.settled(pulse)
            try await fixture.post("after")
            #expect(try await pulse.waitForStreams(count: before + 1) == before + 1)
            await restarted.stop()
            await fixture.stop()
        }
    }

    @Test("no sound server: nothing traps, the first failure is an error in the log, the next ones debug lines")
    func noServer() async throws {
        let library = try #require(CanberraLibrary.shared, "libcanberra0 is installed (make deps)")
        let log = LogRecorder()
        let player = EventSoundPlayer(library: library, logger: log.logger(label: "test"), settings: { .unset })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-pulse-\(UUID().uuidString)")
        let saved = ["PULSE_SERVER", "CANBERRA_DRIVER"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        // A socket nobody serves, and only the PulseAudio backend (no fallback to a sound card).
        setenv("PULSE_SERVER", "unix:" + folder.appendingPathComponent("native").path, 1)
        setenv("CANBERRA_DRIVER", "pulse", 1)
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "one")
        player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: "two")
        await player.settle()
        let entries = log.entries
        #expect(entries.map(\.level) == [.error, .debug], "\(entries.map(\.message))")
        #expect(entries.map { $0.metadata["identifier"]?.description } == ["one", "two"])
        #expect(entries.allSatisfy { $0.metadata["error"] != nil })
    }
}

/// A flag shared with a settings closure.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool

    init(_ value: Bool) { stored = value }

    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A private PulseAudio server that this process's `PULSE_SERVER` points to while `body` runs.
enum PulseAudioEnvironment {
    static func run(_ body: (PulseAudioServer) async throws -> Void) async throws {
        // Sounds handed over before (another test's) go where they were meant to.
        await EventSoundPlayer.shared.settle()
        try await PulseAudioServer.run { pulse in
            let previous = ProcessInfo.processInfo.environment["PULSE_SERVER"]
            setenv("PULSE_SERVER", pulse.address, 1)
            defer {
                if let previous { setenv("PULSE_SERVER", previous, 1) } else { unsetenv("PULSE_SERVER") }
            }
            try await body(pulse)
        }
    }
}
