/// A private bus, a virtual display and dunst on them, for tests against a real notification
/// server; stopped by PID in reverse order.
public struct DunstDesktop: Sendable {
    public let testBus: TestBus
    public let display: XvfbDisplay
    public let dunst: DunstServer

    /// Starts the three, runs `body`, and stops them whether `body` throws or not.
    public static func run(_ body: (DunstDesktop) async throws -> Void) async throws {
        let testBus = try await TestBus()
        let display = try await HarnessLifecycle.start({ try await XvfbDisplay() }, cleanUp: { await testBus.stop() })
        let dunst = try await HarnessLifecycle.start({ try await DunstServer(bus: testBus, display: display) }, cleanUp: {
            await display.stop()
            await testBus.stop()
        })
        try await HarnessLifecycle.run(DunstDesktop(testBus: testBus, display: display, dunst: dunst), body) { await $0.stop() }
    }

    /// Stops dunst, the display and the bus.
    public func stop() async {
        await dunst.stop()
        await display.stop()
        await testBus.stop()
    }
}
