import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

/// The agent plays the sound of a notification it posts for an app when the server plays none
/// (dunst, under Xvfb), on a private PulseAudio server given to the agent alone
/// (`PULSE_SERVER` in its environment): once per delivery, an update in place too, as Apple
/// plays a request's sound each time it is delivered; nothing when the desktop's event sounds
/// are off.
@Suite("The agent plays the sound dunst does not")
struct AgentSoundTests {
    static let appID = "org.example.AgentSound"

    static func request(_ identifier: String, body: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Sound from the agent"
        content.body = body
        content.sound = .default
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("one stream per delivery: the first, then the update in place")
    func playsOncePerDelivery() async throws {
        let scratch = try TemporaryFolder(prefix: "agent-sound")
        try await PulseAudioServer.run { pulse in
            try await DunstDesktop.run { desktop in
                var environment: [String: String?] = ["XDG_STATE_HOME": scratch.path]
                for (key, value) in pulse.environment { environment[key] = value }
                let agent = try await desktop.testBus.startAgent(environment: environment)
                let app = try await AgentTestClient.connect(desktop.testBus.bus)
                try await app.connectApp(Self.appID)
                try await app.add(Self.request("news", body: "first"), for: Self.appID)
                #expect(try await pulse.waitForStreams(count: 1) == 1, "\(agent.standardError)")
                try await Task.sleep(for: .seconds(2))
                #expect(pulse.streamsStarted == 1)
                try await app.add(Self.request("news", body: "second"), for: Self.appID)
                #expect(try await pulse.waitForStreams(count: 2) == 2, "\(agent.standardError)")
                try await Task.sleep(for: .seconds(2))
                #expect(pulse.streamsStarted == 2)
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
                await app.close()
                await agent.stop()
            }
        }
    }

    @Test("the desktop's event sounds off (GSettings org.gnome.desktop.sound event-sounds): no stream")
    func eventSoundsOff() async throws {
        try ToolRequirement.requireDataFile(
            "/usr/share/glib-2.0/schemas/org.gnome.desktop.sound.gschema.xml", package: "gsettings-desktop-schemas")
        let scratch = try TemporaryFolder(prefix: "agent-sound-off")
        let settings = scratch.url.appendingPathComponent("config/glib-2.0/settings")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/sound]\nevent-sounds=false\n".write(
            to: settings.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
        try await PulseAudioServer.run { pulse in
            try await DunstDesktop.run { desktop in
                var environment: [String: String?] = [
                    "XDG_STATE_HOME": scratch.path, "XDG_CONFIG_HOME": scratch.url.appendingPathComponent("config").path,
                    "GSETTINGS_BACKEND": "keyfile",
                ]
                for (key, value) in pulse.environment { environment[key] = value }
                let agent = try await desktop.testBus.startAgent(environment: environment)
                let app = try await AgentTestClient.connect(desktop.testBus.bus)
                try await app.connectApp(Self.appID)
                try await app.add(Self.request("quiet", body: "no sound"), for: Self.appID)
                #expect(try await desktop.dunst.displayedWhenSettled() == 1)
                try await Task.sleep(for: .seconds(2))
                #expect(pulse.streamsStarted == 0)
                await app.close()
                await agent.stop()
            }
        }
    }
}
