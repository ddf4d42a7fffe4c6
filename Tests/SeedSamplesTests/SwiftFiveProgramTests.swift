import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

extension SeedSamplesTests {
    /// The seed samples compiled in the Swift 5 language mode, as a program with top-level
    /// code (`seed-samples-swift5`), run against a private bus and a fake server.
    @Suite("Seed 000 as a Swift 5 program")
    struct SwiftFiveProgram {
        @Test("a plain delegate made by top-level code gets the reply, on the main thread")
        func replyReachesTheTopLevelDelegate() async throws {
            let bus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("seed-swift5-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            var environment = bus.environment
            environment["XDG_STATE_HOME"] = state.path
            let program = try ChildProcess(
                executable: BuiltProduct.url(named: "seed-samples-swift5"), arguments: [], environment: environment)
            let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "\(program.standardError)")
            let sent = try #require(server.notifications.first?.request)
            #expect(sent.actions.map(\.key) == ["default", "inline-reply", "action.goodbye", "action.cancel"])
            server.reply(id: id, text: "see you")
            let result = try await program.result(timeout: .seconds(10))
            #expect(result.status == .exited(0), "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("alert: You just said see you (main thread)"))
            await server.stop()
            await bus.stop()
        }
    }
}
