import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

extension SeedSamplesTests {
    /// The README's "Use it" example is `examples/UseIt/main.swift`, which the package builds as
    /// the `UseIt` program: the two must not drift apart, and the program must work.
    @Suite("The README's example")
    struct ReadmeExample {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        @Test("the README quotes examples/UseIt/main.swift word for word")
        func readmeQuotesTheExample() throws {
            let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
            let example = try String(contentsOf: Self.root.appendingPathComponent("examples/UseIt/main.swift"), encoding: .utf8)
            // The block follows the line naming the file.
            let marker = "<!-- examples/UseIt/main.swift -->\n```swift\n"
            let start = try #require(readme.range(of: marker), "the README has no block after \(marker)")
            let end = try #require(readme.range(of: "\n```\n", range: start.upperBound..<readme.endIndex))
            #expect(String(readme[start.upperBound..<end.lowerBound]) + "\n" == example)
        }

        @Test("UseIt posts as org.example.Hello and prints the action chosen")
        func theExampleWorks() async throws {
            let bus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("use-it-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            var environment = bus.environment
            environment["XDG_STATE_HOME"] = state.path
            let program = try ChildProcess(executable: BuiltProduct.url(named: "UseIt"), arguments: [], environment: environment)
            let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "\(program.standardError)")
            let sent = try #require(server.notifications.first?.request)
            #expect(sent.appName == "Hello")
            #expect(sent.hints.desktopEntry == "org.example.Hello")
            #expect(sent.actions.map(\.key).contains("wave"))
            server.invokeAction(id: id, key: "wave")
            let result = try await program.result(timeout: .seconds(10))
            #expect(result.status == .exited(0), "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("You chose wave"))
            await server.stop()
            await bus.stop()
        }
    }
}
