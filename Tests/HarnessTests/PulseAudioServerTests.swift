import Foundation
import Testing
import UserNotificationsTesting

/// The private PulseAudio server of the sound tests: a stream started by a client given its
/// ``PulseAudioServer/environment`` is counted, nothing else is, and stopping it by PID leaves
/// neither the process nor its folder.
@Suite("PulseAudioServer: a private sound server that counts streams")
struct PulseAudioServerTests {
    @Test("paplay on the server is one stream; after stop the server is gone with its folder")
    func countsAndStops() async throws {
        let paplay = try ToolRequirement.require("paplay")
        try ToolRequirement.requireDataFile("/usr/share/sounds/freedesktop/stereo/bell.oga", package: "sound-theme-freedesktop")
        let pulse = try await PulseAudioServer()
        #expect(pulse.streamsStarted == 0)
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in pulse.environment { environment[key] = value }
        let player = try ChildProcess(
            executable: paplay, arguments: ["/usr/share/sounds/freedesktop/stereo/bell.oga"], environment: environment)
        let played = try await player.result(timeout: .seconds(15))
        #expect(played.status.isSuccess, "\(played.standardError)")
        #expect(try await pulse.waitForStreams(count: 1) == 1)
        await pulse.stop()
        #expect(!pulse.process.isRunning)
        #expect(!pulse.events.isRunning)
        #expect(!FileManager.default.fileExists(atPath: pulse.directory.path))
    }
}
