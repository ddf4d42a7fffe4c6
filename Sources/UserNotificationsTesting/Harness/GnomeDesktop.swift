/// A private session bus (with a service directory, for the shell's notification service)
/// and headless GNOME Shell on it, for tests against a real notification server; stopped by
/// PID in reverse order.
public struct GnomeDesktop: Sendable {
    /// The private session bus the shell runs on.
    public let testBus: TestBus
    /// The headless GNOME Shell serving notifications on ``testBus``.
    public let shell: GnomeShellServer

    /// Starts the two, runs `body`, and stops them whether `body` throws or not;
    /// `applications` are desktop entries the shell knows from the start
    /// (``GnomeShellServer/init(bus:applications:startTimeout:)``).
    public static func run(applications: [String: String] = [:], _ body: (GnomeDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        let shell = try await HarnessLifecycle.start(
            { try await GnomeShellServer(bus: testBus, applications: applications) }, cleanUp: { await testBus.stop() })
        try await HarnessLifecycle.run(GnomeDesktop(testBus: testBus, shell: shell), body) { await $0.stop() }
    }

    /// Stops the shell (with its system bus) and the session bus.
    public func stop() async {
        await shell.stop()
        await testBus.stop()
    }
}
