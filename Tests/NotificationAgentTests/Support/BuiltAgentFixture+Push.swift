import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

extension BuiltAgentFixture {
    /// Registers the built test app through the agent, with `arguments` after its own; returns
    /// its endpoint, p256dh and auth. The app exits once registered.
    func registerTestApp(_ arguments: [String] = []) async throws -> (endpoint: String, p256dh: String, auth: String) {
        let output = try await runApp(["--engine", "agent", "--register-push", "fake"] + arguments, timeout: .seconds(30))
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("registered ") }, "\(output)")
        let words = line.split(separator: " ").map(String.init)
        return (words[1], words[2], words[3])
    }

    /// A center of the app "org.example.Pushed" on the agent, with a delegate recording what it
    /// is asked to present.
    func pushedCenter() -> (UNUserNotificationCenter, PresentationRecorder) {
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Pushed", displayName: "Pushed"), bus: .address(testBus.address),
            stateDirectory: folder.appendingPathComponent("center-state"), engine: .agent)
        let recorder = PresentationRecorder()
        center.delegate = recorder
        return (center, recorder)
    }
}

extension FakeUnifiedPushDistributor {
    /// Sends a push titled `title` (with `mutable-content` when `mutable`), encrypted to
    /// `p256dh` and `auth`, to `token`.
    func push(_ title: String, mutable: Bool = false, p256dh: String, auth: String, to token: String) async throws {
        let flag = mutable ? #","mutable-content":1"# : ""
        let message = try await WebPushTestSender.encrypt(
            Data(#"{"aps":{"alert":{"title":"\#(title)","body":"b"}\#(flag)}}"#.utf8), p256dh: p256dh, auth: auth)
        try await send(message, to: token)
    }
}
